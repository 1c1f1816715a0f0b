import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PaymentGateway } from './gateway.ts';

/** What the payment and refund services run on; its own file so neither service imports the other for it. */
export interface PaymentsDeps {
  db: Kysely<Database>;
  clock: Clock;
  gateway: PaymentGateway;
}
