import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { PAYMENT_STATUSES } from '../../db/database.ts';
import { DateTimeOut, exampleOf, Named, Nullable, Ref, StringEnum } from '../../http/schemas.ts';
import { BookingSchema } from './booking.schemas.ts';

// The day's manifest in the API (decisions §23).

export const ManifestQuery = Type.Object({
  date: Type.Optional(
    Type.String({
      maxLength: 10,
      description: "the local date YYYY-MM-DD in the vendor's time zone (default: today there)",
      examples: ['2026-07-01'],
    }),
  ),
});

const MANIFEST_BOOKING_EXAMPLE = {
  ...(exampleOf(BookingSchema) as object),
  status: 'confirmed',
  expires_at: null,
  attendance: 'checked_in',
  attendance_updated_at: '2026-07-01T08:40:00.000Z',
  payment_status: 'succeeded',
};

/** The manifest's booking: the booking object with its latest payment's status. */
export const ManifestBooking = Named(
  'ManifestBooking',
  Type.Object(
    {
      ...BookingSchema.properties,
      payment_status: Nullable(
        StringEnum(PAYMENT_STATUSES, { description: "its latest payment's status; null: no payment yet" }),
      ),
    },
    {
      description: 'A booking of the manifest (its vendor’s view), with its payment status.',
      examples: [MANIFEST_BOOKING_EXAMPLE],
    },
  ),
);
const ManifestListing = Type.Object({
  kind: Type.Literal('adventure'),
  id: Type.Integer(),
  public_id: Type.String(),
  title: Type.String(),
});
export const Manifest = Named(
  'Manifest',
  Type.Object(
    {
      date: Type.String({ description: 'the local date, YYYY-MM-DD' }),
      time_zone: Type.String({ description: "the vendor's IANA time zone" }),
      departures: Type.Array(
        Type.Object({
          listing: ManifestListing,
          starts_at: DateTimeOut,
          ends_at: DateTimeOut,
          capacity: Nullable(Type.Integer({ description: "the departure's seats (null: no limit)" })),
          participants: Type.Integer({ description: 'participants of its bookings' }),
          bookings: Type.Array(Ref(ManifestBooking)),
        }),
        { description: 'adventure bookings starting that date, by listing and starts_at' },
      ),
      pickups: Type.Array(Ref(ManifestBooking), { description: 'equipment bookings starting that date' }),
      returns: Type.Array(Ref(ManifestBooking), { description: 'equipment bookings ending that date' }),
    },
    {
      description:
        "A vendor's bookings of one local date that are requested, approved or confirmed, ordered by " +
        'starts_at, then listing title (decisions §23).',
      examples: [
        {
          date: '2026-07-01',
          time_zone: 'Europe/Lisbon',
          departures: [
            {
              listing: { kind: 'adventure', id: 7, public_id: 'reef-dive', title: 'Reef dive' },
              starts_at: '2026-07-01T08:00:00.000Z',
              ends_at: '2026-07-01T09:30:00.000Z',
              capacity: 8,
              participants: 2,
              bookings: [
                {
                  ...MANIFEST_BOOKING_EXAMPLE,
                  equipment_item_id: null,
                  adventure_offering_id: 7,
                  participants_count: 2,
                  quantity: null,
                },
              ],
            },
          ],
          pickups: [MANIFEST_BOOKING_EXAMPLE],
          returns: [],
        },
      ],
    },
  ),
);
export const ManifestCsv = Named(
  'ManifestCsv',
  Type.Unsafe<Readable>({
    type: 'string',
    description:
      'text/csv: a header row, then one row per booking (departures, pick-ups, returns; a booking picked ' +
      'up and returned that date is one pickup+return row)',
  }),
);
