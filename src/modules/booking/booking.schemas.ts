import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { DateTimeIn, DateTimeOut, MoneyOut, Nullable, Text } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';

const ListingId = Type.Integer({ minimum: 1, maximum: MAX_ID });
const Status = Type.Union([
  Type.Literal('requested'),
  Type.Literal('approved'),
  Type.Literal('declined'),
  Type.Literal('cancelled'),
  Type.Literal('confirmed'),
]);

/** Exactly one of the two is required (checked by the service, which names both fields on failure). */
const listingIds = {
  equipment_item_id: Type.Optional(Nullable(ListingId)),
  adventure_offering_id: Type.Optional(Nullable(ListingId)),
};

// --- slots ---

export const SlotSchema = Type.Object({
  id: Type.Integer(),
  equipment_item_id: Nullable(Type.Integer()),
  adventure_offering_id: Nullable(Type.Integer()),
  starts_at: DateTimeOut,
  ends_at: DateTimeOut,
  is_available: Type.Boolean(),
  created_at: DateTimeOut,
});

export const CreateSlotBody = Type.Object({
  ...listingIds,
  starts_at: DateTimeIn,
  ends_at: DateTimeIn,
  is_available: Type.Optional(Type.Boolean({ description: 'default true' })),
});

export const UpdateSlotBody = Type.Object({
  starts_at: Type.Optional(DateTimeIn),
  ends_at: Type.Optional(DateTimeIn),
  is_available: Type.Optional(Type.Boolean()),
});

export const VendorSlotsQuery = Type.Object({ ...PageQuery, ...listingIds });

export const PublicSlotsQuery = Type.Object({
  ...PageQuery,
  ...listingIds,
  from: Type.Optional(DateTimeIn),
  to: Type.Optional(DateTimeIn),
});

// --- availability ---

export const AvailabilityQuery = Type.Object({
  ...listingIds,
  starts_at: DateTimeIn,
  ends_at: DateTimeIn,
});

export const AvailabilitySchema = Type.Object({
  equipment_item_id: Nullable(Type.Integer()),
  adventure_offering_id: Nullable(Type.Integer()),
  starts_at: DateTimeOut,
  ends_at: DateTimeOut,
  is_available: Type.Boolean(),
  conflicts: Type.Integer({
    description: 'overlapping requested/approved/confirmed bookings plus overlapping unavailable slots',
  }),
});

// --- bookings ---

export const StatusHistoryEntrySchema = Type.Object({
  from_status: Nullable(Status),
  to_status: Status,
  note: Type.String(),
  actor_id: Nullable(Type.Integer()),
  created_at: DateTimeOut,
});

export const BookingSchema = Type.Object({
  id: Type.Integer(),
  status: Status,
  equipment_item_id: Nullable(Type.Integer()),
  adventure_offering_id: Nullable(Type.Integer()),
  starts_at: DateTimeOut,
  ends_at: DateTimeOut,
  participants_count: Nullable(Type.Integer()),
  customer_notes: Type.String(),
  vendor_notes: Type.String(),
  total_price: MoneyOut,
  listing_click: Nullable(Type.Integer()),
  customer_id: Type.Integer(),
  vendor_slug: Type.String(),
  listing_title: Type.String(),
  currency: Type.String(),
  status_history: Type.Array(StatusHistoryEntrySchema),
  created_at: DateTimeOut,
  updated_at: DateTimeOut,
});

export const BookingRequestBody = Type.Object({
  ...listingIds,
  starts_at: DateTimeIn,
  ends_at: DateTimeIn,
  customer_notes: Type.Optional(Text(5000)),
  participants_count: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'adventures; default 1' })),
  ),
  marketing_click_id: Type.Optional(
    Nullable(Type.Integer({ description: 'attributes the booking when valid; otherwise ignored' })),
  ),
});

export const ApproveBody = Type.Object({
  vendor_notes: Type.Optional(Text(5000)),
  note: Type.Optional(Text(2000)),
});
export const DeclineBody = ApproveBody;
export const CancelBody = Type.Object({ note: Type.Optional(Text(2000)) });

export const BookingListQuery = Type.Object({ ...PageQuery, status: Type.Optional(Status) });
