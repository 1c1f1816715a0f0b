import { Type } from 'typebox';
import { MAX_ID } from '../lib/limits.ts';

// Schema pieces shared by every module's route schemas.

export const ErrorBodySchema = Type.Object(
  {
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  },
  { description: 'The body of every error response.' },
);

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID }) });

/** ISO 8601 datetime in a response (always UTC with Z). */
export const DateTimeOut = Type.String({ format: 'date-time' });

/** ISO 8601 datetime in a request; parsed by the service (offsets honoured, no zone = UTC). */
export const DateTimeIn = Type.String({ maxLength: 64, description: 'ISO 8601 datetime; no zone means UTC' });

/** Money in a response: decimal string with two decimals. */
export const MoneyOut = Type.String({ pattern: '^-?\\d+\\.\\d{2}$', examples: ['45.00'] });

/** Money in a request: a decimal string or number, >= 0, at most two decimals (checked by the service). */
export const MoneyIn = Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
  description: 'decimal string or number, >= 0, at most two decimal places, below 100,000,000',
});

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const Text = (maxLength: number) => Type.String({ maxLength });
