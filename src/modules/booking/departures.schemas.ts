import { Type } from 'typebox';
import { DateTimeIn, DateTimeOut, Named, Nullable, Ref, StringEnum, Text } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { MAX_RULE_CAPACITY } from '../../lib/schedule.ts';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from './departures.service.ts';

// The departures of scheduled adventure offerings (decisions §19).

export const DeparturesQuery = Type.Object({
  from: Type.Optional({ ...DateTimeIn, description: 'departures starting at or after it; default now' }),
  to: Type.Optional({
    ...DateTimeIn,
    description: `departures starting before it; default from + ${DEFAULT_RANGE_DAYS} days; after from, at most ${MAX_RANGE_DAYS} days later`,
  }),
});

const EXAMPLE = {
  starts_at: '2026-07-04T08:00:00.000Z',
  ends_at: '2026-07-04T10:00:00.000Z',
  local_date: '2026-07-04',
  local_time: '09:00',
  capacity: 12,
  remaining: 5,
  status: 'limited',
  cutoff_at: '2026-07-04T06:00:00.000Z',
};

const departureFields = {
  starts_at: DateTimeOut,
  ends_at: DateTimeOut,
  local_date: Type.String({ description: "YYYY-MM-DD of starts_at in the vendor's time_zone" }),
  local_time: Type.String({
    description:
      "HH:MM of starts_at in the vendor's time_zone (a start time skipped by a daylight-saving change shows moved forward)",
  }),
  capacity: Type.Integer({
    description:
      "seats (shared) or participants per booking (private): the vendor's, its rule's, else the offering's",
  }),
  remaining: Type.Integer({
    description:
      'seats a request can take now: capacity less the seats of its bookings (shared); capacity or 0 (private); 0 when closed',
  }),
  status: StringEnum(['closed', 'sold_out', 'limited', 'available'], {
    description:
      'closed: now >= cutoff_at, or the vendor closed or cancelled it, or an unavailable slot overlaps it; ' +
      'sold_out: remaining 0; limited: remaining below half the capacity; else available',
  }),
  cutoff_at: Type.String({
    format: 'date-time',
    description: 'starts_at - booking_cutoff_minutes: requests close then',
  }),
};

export const DepartureSchema = Named('Departure', Type.Object(departureFields, { examples: [EXAMPLE] }));

const rangeFields = {
  public_id: Type.String(),
  time_zone: Type.String({ description: "the vendor's IANA time zone" }),
  from: DateTimeOut,
  to: DateTimeOut,
  scheduled: Type.Boolean({ description: 'false: the offering has no schedule, and no departures' }),
};

const RANGE_EXAMPLE = {
  public_id: 'sunset-paddle',
  time_zone: 'Europe/Lisbon',
  from: '2026-07-01T00:00:00.000Z',
  to: '2026-07-15T00:00:00.000Z',
  scheduled: true,
};

export const DepartureListSchema = Named(
  'DepartureList',
  Type.Object(
    { ...rangeFields, departures: Type.Array(Ref(DepartureSchema), { description: 'ordered by starts_at' }) },
    { examples: [{ ...RANGE_EXAMPLE, departures: [EXAMPLE] }] },
  ),
);

const VENDOR_EXAMPLE = {
  ...EXAMPLE,
  booked: 7,
  bookings: 3,
  closed_by: null,
  capacity_override: null,
  cancelled_at: null,
  note: '',
};

export const VendorDepartureSchema = Named(
  'VendorDeparture',
  Type.Object(
    {
      ...departureFields,
      booked: Type.Integer({
        description: 'seats (participants) held by its requested, approved and confirmed bookings',
      }),
      bookings: Type.Integer({ description: 'its requested, approved and confirmed bookings' }),
      closed_by: Nullable(
        StringEnum(['cutoff', 'vendor', 'slot'], {
          description:
            'why it is closed: the booking cutoff passed, the vendor closed (or cancelled) it, an unavailable slot',
        }),
      ),
      capacity_override: Nullable(
        Type.Integer({ description: "the vendor's capacity for it; null: the schedule's" }),
      ),
      cancelled_at: Nullable(DateTimeOut),
      note: Type.String({ description: 'the note of its cancel' }),
    },
    { examples: [VENDOR_EXAMPLE] },
  ),
);

export const VendorDepartureListSchema = Named(
  'VendorDepartureList',
  Type.Object(
    {
      ...rangeFields,
      departures: Type.Array(Ref(VendorDepartureSchema), { description: 'ordered by starts_at' }),
    },
    { examples: [{ ...RANGE_EXAMPLE, departures: [VENDOR_EXAMPLE] }] },
  ),
);

export const DepartureParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  starts_at: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "the departure's instant, ISO 8601, URL-encoded (2026-07-04T08%3A00%3A00.000Z)",
  }),
});

export const ChangeDepartureBody = Type.Object(
  {
    capacity: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: MAX_RULE_CAPACITY,
          description:
            'its capacity; null: follow the schedule again. Below the seats held: 409 booking_conflict',
        }),
      ),
    ),
    is_closed: Type.Optional(Type.Boolean({ description: 'true closes it to requests; false reopens it' })),
  },
  { examples: [{ capacity: 8, is_closed: false }] },
);

export const CancelDepartureBody = Type.Object(
  {
    note: Type.Optional({
      ...Text(2000),
      description: "kept in each cancelled booking's status_history and on the departure",
    }),
  },
  { examples: [{ note: 'Strong wind forecast: the trip is cancelled.' }] },
);

/** Booking ids, oldest first. */
const bookingIds = (what: string) => Type.Array(Type.Integer(), { description: `${what}, oldest first` });

export const CancelledDepartureSchema = Named(
  'CancelledDeparture',
  Type.Object(
    {
      starts_at: DateTimeOut,
      cancelled_booking_ids: bookingIds('the bookings it vendor-cancelled (paid ones refunded in full)'),
    },
    { examples: [{ starts_at: '2026-07-04T08:00:00.000Z', cancelled_booking_ids: [41, 44] }] },
  ),
);

export const PublicIdParams = Type.Object({ public_id: Type.String({ minLength: 1, maxLength: 1000 }) });

export const DepartureCancellationSchema = Named(
  'DepartureCancellation',
  Type.Object(
    {
      starts_at: DateTimeOut,
      booking_ids: bookingIds('the requested, approved and confirmed bookings a cancel would cancel now'),
      paid_bookings: Type.Integer({ description: 'how many of them are paid' }),
      refund_amount: Type.String({
        description: 'what a cancel would refund now: the sum of what remains of their payments',
      }),
      currency: Type.String(),
    },
    {
      examples: [
        {
          starts_at: '2026-07-04T08:00:00.000Z',
          booking_ids: [41, 44],
          paid_bookings: 1,
          refund_amount: '90.00',
          currency: 'eur',
        },
      ],
    },
  ),
);
