import { Type } from 'typebox';
import { PageQuery, PaginatedSchema } from '../../http/pagination.ts';
import {
  DateTimeIn,
  DateTimeOut,
  exampleOf,
  MoneyOut,
  Named,
  Nullable,
  Ref,
  StringEnum,
  Text,
} from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { CancellationPolicySchema } from '../catalog/index.ts';
import { PRICE_CHOICE_FIELDS, PRICE_LINES } from './prices.schemas.ts';
import { TRIP_BOOKING_EXAMPLE, TRIP_BOOKING_FIELDS, TRIP_REQUEST_FIELDS } from './trip.schemas.ts';

const ListingId = Type.Integer({ minimum: 1, maximum: MAX_ID });
// The states of BOOKING_STATUSES (booking.state-machine.ts; its test compares the two).
export const BookingStatusSchema = Type.Union(
  [
    Type.Literal('requested'),
    Type.Literal('approved'),
    Type.Literal('declined'),
    Type.Literal('cancelled'),
    Type.Literal('confirmed'),
    Type.Literal('expired'),
  ],
  {
    description:
      'requested → approved → confirmed (paid); or declined, or cancelled; or expired: a requested or ' +
      'approved booking whose expires_at has passed (final; it holds nothing from that instant on)',
  },
);

/** Exactly one of the two is required (checked by the service, which names both fields on failure). */
const listingIds = {
  equipment_item_id: Type.Optional(Nullable(ListingId)),
  adventure_offering_id: Type.Optional(Nullable(ListingId)),
};
const LISTING_IDS_RULE = 'Exactly one of equipment_item_id and adventure_offering_id.';

// --- slots ---

const SLOT_EXAMPLE = {
  id: 12,
  equipment_item_id: 5,
  adventure_offering_id: null,
  starts_at: '2026-07-01T09:00:00.000Z',
  ends_at: '2026-07-01T17:00:00.000Z',
  is_available: true,
  created_at: '2026-05-03T08:00:00.000Z',
};

export const SlotSchema = Named(
  'Slot',
  Type.Object(
    {
      id: Type.Integer(),
      equipment_item_id: Nullable(Type.Integer()),
      adventure_offering_id: Nullable(Type.Integer()),
      starts_at: DateTimeOut,
      ends_at: DateTimeOut,
      is_available: Type.Boolean(),
      created_at: DateTimeOut,
    },
    { description: 'A window of a listing that its vendor opened or closed.', examples: [SLOT_EXAMPLE] },
  ),
);
export const SlotPage = PaginatedSchema(SlotSchema);

export const CreateSlotBody = Type.Object(
  {
    ...listingIds,
    starts_at: DateTimeIn,
    ends_at: DateTimeIn,
    is_available: Type.Optional(Type.Boolean({ description: 'default true' })),
  },
  {
    description: LISTING_IDS_RULE,
    examples: [{ equipment_item_id: 5, starts_at: '2026-07-01T09:00:00Z', ends_at: '2026-07-01T17:00:00Z' }],
  },
);

export const UpdateSlotBody = Type.Object(
  {
    starts_at: Type.Optional(DateTimeIn),
    ends_at: Type.Optional(DateTimeIn),
    is_available: Type.Optional(Type.Boolean()),
  },
  { examples: [{ is_available: false }] },
);

export const VendorSlotsQuery = Type.Object({ ...PageQuery, ...listingIds });

export const PublicSlotsQuery = Type.Object({
  ...PageQuery,
  ...listingIds,
  from: Type.Optional(DateTimeIn),
  to: Type.Optional(DateTimeIn),
});

// --- units and seats (decisions §10) ---

const UNITS_RULE =
  'At no instant of [starts_at, ends_at) may the units (equipment) or seats (shared adventures) held by ' +
  "requested, approved and confirmed bookings, plus this request, exceed the listing's quantity or " +
  'capacity. The peak counts, not the sum: with 5 units, 09-11 × 5 and 13-15 × 5 do not block each ' +
  'other, and 10-14 × 1 conflicts with both. A private adventure or an item of quantity 1 takes one ' +
  'booking at a time.';

/** ends_at of a request or check: an adventure may leave it out. */
const OptionalEndsAt = Type.Optional(
  Type.String({
    maxLength: 64,
    description:
      'ISO 8601 datetime; no zone means UTC. Required for equipment; for an adventure, left out: ' +
      'starts_at + its duration_minutes (400 on ends_at when it has none)',
  }),
);
const quantitySchema = (use: string) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    description:
      `equipment: ${use}; default 1, at most the item's quantity (400 otherwise). ` +
      'Not for adventures (400 on quantity): they take participants_count.',
  });
const participantsSchema = (use: string) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    description: `adventures: ${use}; default 1, at most the capacity (400 otherwise); ignored for equipment`,
  });

// --- availability ---

export const AvailabilityQuery = Type.Object({
  ...listingIds,
  starts_at: DateTimeIn,
  ends_at: OptionalEndsAt,
  // a query string has no null: plain optional integers
  quantity: Type.Optional(quantitySchema('the units asked about')),
  participants_count: Type.Optional(participantsSchema('the participants (shared: seats) asked about')),
});

export const AvailabilitySchema = Named(
  'Availability',
  Type.Object(
    {
      equipment_item_id: Nullable(Type.Integer()),
      adventure_offering_id: Nullable(Type.Integer()),
      starts_at: DateTimeOut,
      ends_at: DateTimeOut,
      is_available: Type.Boolean({
        description:
          'a request for the quantity or participants_count asked (default 1) would be accepted now',
      }),
      conflicts: Type.Integer({
        description: 'overlapping requested/approved/confirmed bookings plus overlapping unavailable slots',
      }),
      remaining: Type.Integer({
        description:
          'units (equipment) or seats (shared adventure) free at every instant of the window: the minimum ' +
          'over it; 1 or 0 for a private adventure or an item of quantity 1; 0 when slots block or do not ' +
          'cover the window, or it starts in the past',
      }),
    },
    {
      description: UNITS_RULE,
      examples: [
        {
          equipment_item_id: 5,
          adventure_offering_id: null,
          starts_at: '2026-07-01T09:00:00.000Z',
          ends_at: '2026-07-02T09:00:00.000Z',
          is_available: true,
          conflicts: 2,
          remaining: 3,
        },
      ],
    },
  ),
);

// --- bookings ---

export const StatusHistoryEntrySchema = Named(
  'StatusHistoryEntry',
  Type.Object({
    from_status: Nullable(BookingStatusSchema),
    to_status: BookingStatusSchema,
    note: Type.String(),
    actor_id: Nullable(
      Type.Integer({
        description:
          'the user id of the account that made the change: the team member who acted for the vendor ' +
          '(decisions §25), or the customer; null for the expiry sweep and the payment gateway',
      }),
    ),
    created_at: DateTimeOut,
  }),
);

const BOOKING_CUSTOMER_EXAMPLE = {
  id: 7,
  first_name: 'Sam',
  last_name: 'Rivers',
  email: 'sam@example.com',
  phone_number: '+1 555 0142',
};
const BOOKING_VENDOR_EXAMPLE = {
  business_name: 'Blue Lagoon Watersports',
  slug: 'blue-lagoon-watersports',
  contact_email: 'hello@bluelagoon.example',
  contact_phone: '+1 555 0100',
  time_zone: 'America/Los_Angeles',
};

export const BookingCustomerSchema = Named(
  'BookingCustomer',
  Type.Object(
    {
      id: Type.Integer({ description: 'the same as the booking’s customer_id' }),
      first_name: Type.String(),
      last_name: Type.String(),
      email: Type.String(),
      phone_number: Type.String(),
    },
    {
      description: "The booking's customer as the account is now, so the vendor can reach them.",
      examples: [BOOKING_CUSTOMER_EXAMPLE],
    },
  ),
);

const BOOKING_CONTACT_EXAMPLE = {
  full_name: 'Ana Costa',
  email: 'ana@example.com',
  phone_number: '+351 912 345 678',
};
const BOOKING_CHANNEL_EXAMPLE = { id: 3, name: 'Harbour Hotel concierge' };

export const BookingContactSchema = Named(
  'BookingContact',
  Type.Object(
    {
      full_name: Nullable(Type.String()),
      email: Nullable(Type.String()),
      phone_number: Nullable(Type.String()),
    },
    {
      description:
        'Who a booking made through a channel is for, as the reseller sent it when confirming (decisions ' +
        '§24); null until then.',
      examples: [BOOKING_CONTACT_EXAMPLE],
    },
  ),
);

export const BookingChannelSchema = Named(
  'BookingChannel',
  Type.Object(
    { id: Type.Integer(), name: Type.String({ description: "the channel's name as it is now" }) },
    {
      description: 'The channel (a reseller over OCTO) a booking was made through.',
      examples: [BOOKING_CHANNEL_EXAMPLE],
    },
  ),
);

export const BookingVendorSchema = Named(
  'BookingVendor',
  Type.Object(
    {
      business_name: Type.String(),
      slug: Type.String({ description: 'the same as the booking’s vendor_slug' }),
      contact_email: Type.String(),
      contact_phone: Type.String(),
      time_zone: Type.String({ description: 'IANA name: the zone the booking’s times are local to' }),
    },
    {
      description: "The listing's vendor as its profile is now, so the customer can reach them.",
      examples: [BOOKING_VENDOR_EXAMPLE],
    },
  ),
);

/** A customer's booking, approved and waiting for its payment. */
const BOOKING_EXAMPLE = {
  id: 41,
  status: 'approved',
  equipment_item_id: 5,
  adventure_offering_id: null,
  starts_at: '2026-07-01T09:00:00.000Z',
  ends_at: '2026-07-03T09:00:00.000Z',
  participants_count: null,
  quantity: 2,
  customer_notes: 'Two paddles, please.',
  vendor_notes: 'See you at the dock.',
  total_price: '180.00',
  price_lines: [
    { kind: 'base', code: null, label: 'Rental', quantity: 2, unit_price: '90.00', amount: '180.00' },
  ],
  promo_code: null,
  ...TRIP_BOOKING_EXAMPLE,
  listing_click: null,
  customer_id: 7,
  vendor_slug: 'blue-lagoon-watersports',
  listing_title: 'Touring kayak',
  currency: 'usd',
  customer: BOOKING_CUSTOMER_EXAMPLE,
  contact: null,
  channel: null,
  reseller_reference: null,
  vendor: BOOKING_VENDOR_EXAMPLE,
  expires_at: '2026-05-05T15:00:00.000Z',
  status_history: [
    {
      from_status: null,
      to_status: 'requested',
      note: '',
      actor_id: 7,
      created_at: '2026-05-04T12:00:00.000Z',
    },
    {
      from_status: 'requested',
      to_status: 'approved',
      note: '',
      actor_id: 3,
      created_at: '2026-05-04T15:00:00.000Z',
    },
  ],
  created_at: '2026-05-04T12:00:00.000Z',
  updated_at: '2026-05-04T15:00:00.000Z',
};

/** A booking made through a channel (decisions §24): no customer, the reseller's contact and reference. */
const CHANNEL_BOOKING_EXAMPLE = {
  ...BOOKING_EXAMPLE,
  id: 42,
  status: 'confirmed',
  customer_notes: '',
  vendor_notes: '',
  customer_id: 12,
  customer: null,
  contact: BOOKING_CONTACT_EXAMPLE,
  channel: BOOKING_CHANNEL_EXAMPLE,
  reseller_reference: 'HH-4471',
  expires_at: null,
  status_history: [
    {
      from_status: null,
      to_status: 'requested',
      note: '',
      actor_id: 12,
      created_at: '2026-05-04T12:00:00.000Z',
    },
    {
      from_status: 'requested',
      to_status: 'confirmed',
      note: 'confirmed by the channel',
      actor_id: 12,
      created_at: '2026-05-04T12:10:00.000Z',
    },
  ],
};

export const BookingSchema = Named(
  'Booking',
  Type.Object(
    {
      id: Type.Integer(),
      status: BookingStatusSchema,
      equipment_item_id: Nullable(Type.Integer()),
      adventure_offering_id: Nullable(Type.Integer()),
      starts_at: DateTimeOut,
      ends_at: DateTimeOut,
      participants_count: Nullable(Type.Integer()),
      quantity: Nullable(
        Type.Integer({ description: 'units of the equipment item booked; null for adventures' }),
      ),
      customer_notes: Type.String(),
      vendor_notes: Type.String(),
      total_price: MoneyOut,
      price_lines: PRICE_LINES,
      promo_code: Nullable(Type.String({ description: 'the promo code it redeemed, as stored' })),
      ...TRIP_BOOKING_FIELDS,
      listing_click: Nullable(Type.Integer()),
      customer_id: Type.Integer(),
      vendor_slug: Type.String(),
      listing_title: Type.String(),
      currency: Type.String({
        description:
          "lower-case ISO 4217 code: the listing's (its vendor's) when the booking was requested; it never " +
          'changes, and the booking is paid in it',
      }),
      // null for a booking made through a channel, which shows its contact and channel instead
      customer: Nullable(Ref(BookingCustomerSchema)),
      contact: Nullable(Ref(BookingContactSchema)),
      channel: Nullable(Ref(BookingChannelSchema)),
      reseller_reference: Nullable(
        Type.String({ description: "a channel booking's reference in the reseller's system" }),
      ),
      vendor: Ref(BookingVendorSchema),
      expires_at: Nullable(
        Type.String({
          format: 'date-time',
          description:
            "When the hold lapses: while requested, creation + the vendor's request_ttl_minutes; while " +
            "approved, approval + the vendor's payment_ttl_minutes; never later than starts_at. From that " +
            'instant the booking is expired and holds nothing. Kept once expired; null in every other state.',
        }),
      ),
      status_history: Type.Array(Ref(StatusHistoryEntrySchema)),
      created_at: DateTimeOut,
      updated_at: DateTimeOut,
    },
    {
      examples: [BOOKING_EXAMPLE, CHANNEL_BOOKING_EXAMPLE],
    },
  ),
);
export const BookingPage = PaginatedSchema(BookingSchema);

const REFUND_EXAMPLE = {
  id: 3,
  payment_id: 9,
  amount: '90.00',
  currency: 'usd',
  reason: 'requested_by_customer',
  status: 'succeeded',
  actor_id: 7,
  created_at: '2026-05-06T10:00:00.000Z',
  updated_at: '2026-05-06T10:00:00.000Z',
};

// The refund object is defined here, not in the payments module, because a cancel answers with one and
// imports run booking ← payments (the payments module maps its rows to this shape).
export const RefundSchema = Named(
  'Refund',
  Type.Object(
    {
      id: Type.Integer(),
      payment_id: Type.Integer(),
      amount: MoneyOut,
      currency: Type.String({ description: "the payment's (lower-case ISO 4217)" }),
      reason: StringEnum(
        ['requested_by_customer', 'cancelled_by_vendor', 'expired', 'vendor_initiated', 'gateway'],
        {
          description:
            "requested_by_customer: the customer's cancel; cancelled_by_vendor: vendor-cancel, or a payment " +
            'that succeeded after the vendor declined; expired: a payment that succeeded after the hold ' +
            "expired; vendor_initiated: the vendor's refund endpoint; gateway: a charge.refunded webhook",
        },
      ),
      status: StringEnum(['pending', 'succeeded', 'failed'], {
        description:
          'pending while the gateway has not answered (its amount is already reserved; a pending refund is ' +
          'completed at the next start-up or by charge.refunded, never twice); failed frees the amount',
      }),
      actor_id: Nullable(
        Type.Integer({
          description:
            'the account whose request made the refund: the team member who refunded or cancelled for the ' +
            'vendor, the customer for their cancel; null when nobody asked (the gateway, a late payment)',
        }),
      ),
      created_at: DateTimeOut,
      updated_at: DateTimeOut,
    },
    { description: 'A refund of (part of) a payment, modelled on Stripe’s.', examples: [REFUND_EXAMPLE] },
  ),
);

export const CancellationPreviewSchema = Named(
  'CancellationPreview',
  Type.Object(
    {
      can_cancel: Type.Boolean({ description: "whether the caller's cancel would be accepted now" }),
      reason: Type.String({
        description: 'why not (the refusal a cancel would answer), or the rule that gives refund_amount',
      }),
      paid_amount: MoneyOut,
      refund_amount: MoneyOut,
      currency: Type.String({ description: "the booking's, lower-case ISO 4217" }),
      policy: Ref(CancellationPolicySchema),
    },
    {
      description:
        'What a cancel by the caller (the customer: POST cancel/, the vendor: POST vendor-cancel/) would ' +
        'refund if made now, computed as the cancel computes it. refund_amount is 0.00 when nothing is ' +
        'paid or the cancel would be refused.',
      examples: [
        {
          can_cancel: true,
          reason: 'Less than 48 hours before the start: 50% of the payment is refunded.',
          paid_amount: '90.00',
          refund_amount: '45.00',
          currency: 'eur',
          policy: { free_cancellation_hours: 48, late_refund_percent: 50 },
        },
      ],
    },
  ),
);

export const CancelledBookingSchema = Named(
  'CancelledBooking',
  Type.Object(
    {
      ...BookingSchema.properties,
      refund: Nullable(Ref(RefundSchema)),
    },
    {
      description:
        'The booking after a cancel, with the refund the cancel made: null when nothing was paid or the ' +
        'policy refunds nothing.',
      examples: [
        {
          ...(exampleOf(BookingSchema) as object),
          status: 'cancelled',
          refund: REFUND_EXAMPLE,
        },
      ],
    },
  ),
);

export const BookingRequestBody = Type.Object(
  {
    ...listingIds,
    starts_at: DateTimeIn,
    ends_at: OptionalEndsAt,
    customer_notes: Type.Optional(Text(5000)),
    participants_count: Type.Optional(
      Nullable(participantsSchema("participants; a shared adventure's seats (null: the default)")),
    ),
    quantity: Type.Optional(
      Nullable(
        quantitySchema(
          'units to book; total_price = the price of one unit for the window (rates and price_per_day, decisions §20) × quantity (null: the default)',
        ),
      ),
    ),
    marketing_click_id: Type.Optional(
      Nullable(Type.Integer({ description: 'attributes the booking when valid; otherwise ignored' })),
    ),
    ...PRICE_CHOICE_FIELDS,
    ...TRIP_REQUEST_FIELDS,
  },
  {
    description: `${LISTING_IDS_RULE} ${UNITS_RULE} A window without enough free is 409 booking_conflict, its detail saying what is short ("Only 2 of 5 units are free for that window.").`,
    examples: [
      {
        equipment_item_id: 5,
        starts_at: '2026-07-01T09:00:00Z',
        ends_at: '2026-07-03T09:00:00Z',
        quantity: 2,
        customer_notes: 'Two paddles, please.',
      },
    ],
  },
);

export const ApproveBody = Type.Object(
  { vendor_notes: Type.Optional(Text(5000)), note: Type.Optional(Text(2000)) },
  { examples: [{ vendor_notes: 'See you at the dock.' }] },
);
export const DeclineBody = ApproveBody;
export const CancelBody = Type.Object(
  { note: Type.Optional(Text(2000)) },
  { examples: [{ note: 'Plans changed.' }] },
);
export const VendorCancelBody = Type.Object(
  { note: Type.Optional(Text(2000)) },
  { examples: [{ note: 'The boat is out of service.' }] },
);

/** The booking list's orders: newest first (the default), or soonest start first. */
export const BOOKING_ORDERINGS = ['-created_at', 'starts_at'] as const;

export const BookingListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(BookingStatusSchema),
  starts_from: Type.Optional({
    ...DateTimeIn,
    description: 'only bookings starting at or after this moment (ISO 8601; no zone means UTC)',
  }),
  ordering: Type.Optional(
    StringEnum(BOOKING_ORDERINGS, {
      description:
        '-created_at: newest first (the default); starts_at: soonest start first, then by id (with ' +
        'starts_from=now and status=confirmed, the upcoming bookings)',
    }),
  ),
});
