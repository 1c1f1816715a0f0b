import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/database.ts';
import { insertListing, type ListingFixture, vendorProfileId } from '../../helpers/booking-factories.ts';
import type { Injector } from '../../helpers/build-test-app.ts';
import type { Account } from '../../helpers/factories.ts';

// Small shared steps of the booking integration tests (not a test file: vitest only runs *.test.ts).

/** A vendor's listing inserted directly, with the vendor's profile id. */
export async function listingOf(
  db: Kysely<Database>,
  vendor: Account,
  fixture: Omit<ListingFixture, 'vendorId'> = {},
): Promise<number> {
  return insertListing(db, { vendorId: await vendorProfileId(db, vendor.id), ...fixture });
}

export function bookingRequester(api: Injector) {
  return (token: string, payload: Record<string, unknown>) =>
    api({ method: 'POST', url: '/api/v1/booking/bookings/request/', token, payload });
}

export function transitioner(api: Injector) {
  return (
    token: string,
    id: number,
    action: 'approve' | 'decline' | 'cancel',
    payload?: Record<string, unknown>,
  ) => api({ method: 'POST', url: `/api/v1/booking/bookings/${id}/${action}/`, token, payload });
}
