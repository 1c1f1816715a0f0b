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

// --- bookings ---------------------------------------------------------------------------------------------

// The request bodies of OCTO's booking endpoints (decisions §24), as OCTO's specification defines them
// (BookingReservationBody, BookingConfirmationBody, ExtendReservationBody, BookingCancellationBody): the
// members this supplier reads are checked; members OCTO defines that it does not use are accepted and
// ignored, as OCTO asks of a supplier.

const Reference = Type.String({ minLength: 1, maxLength: 200 });
const Name = Type.Union([Type.String({ maxLength: 200 }), Type.Null()]);

const UnitItem = Type.Object({ unitId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ReserveBody = Type.Object({
  uuid: Type.Optional(Type.String({ format: 'uuid' })),
  productId: Type.String({ minLength: 1, maxLength: 64 }),
  optionId: Type.String({ minLength: 1, maxLength: 64 }),
  availabilityId: Type.Optional(Type.String({ maxLength: 64 })),
  expirationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_080 })),
  notes: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
  resellerReference: Type.Optional(Reference),
  // at most what one booking can hold (a departure's or an item's capacity is checked by the request)
  unitItems: Type.Array(UnitItem, { maxItems: 10_000 }),
});

export const ConfirmBody = Type.Object({
  resellerReference: Type.Optional(Reference),
  contact: Type.Object({
    fullName: Type.Optional(Name),
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    emailAddress: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
    phoneNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  }),
});

export const ExtendBody = Type.Object({
  expirationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_080 })),
});

export const CancelBody = Type.Object({
  reason: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  force: Type.Optional(Type.Boolean()),
});

export const BookingsQuery = Type.Object({
  resellerReference: Type.Optional(Type.String({ maxLength: 200 })),
  supplierReference: Type.Optional(Type.String({ maxLength: 200 })),
});

export const UuidParams = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });
