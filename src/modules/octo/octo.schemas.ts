import { Type } from 'typebox';

// The bodies the OCTO API takes (the OCTO specification's AvailabilityCheckBody and
// AvailabilityCalendarBody). A body that does not fit is 400 BAD_REQUEST in OCTO's error body
// (octo.errors.ts); productId and optionId are checked by the service, so that a missing or unknown one is
// OCTO's INVALID_PRODUCT_ID or INVALID_OPTION_ID naming it.

const localDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, local' });

const units = Type.Array(
  Type.Object({
    id: Type.String({ maxLength: 64 }),
    quantity: Type.Integer({ minimum: 0, maximum: 10_000 }),
  }),
  { maxItems: 50 },
);

const product = {
  productId: Type.Optional(Type.String({ maxLength: 200 })),
  optionId: Type.Optional(Type.String({ maxLength: 200 })),
  units: Type.Optional(units),
  currency: Type.Optional(Type.Union([Type.String({ maxLength: 8 }), Type.Null()])),
};

export const AvailabilityCalendarBody = Type.Object({
  ...product,
  localDateStart: Type.Optional(localDate),
  localDateEnd: Type.Optional(localDate),
});

export const AvailabilityCheckBody = Type.Object({
  ...product,
  localDate: Type.Optional(localDate),
  localDateStart: Type.Optional(localDate),
  localDateEnd: Type.Optional(localDate),
  availabilityIds: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 100 })),
});

export const ProductParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
