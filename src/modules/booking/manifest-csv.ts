import type { Readable } from 'node:stream';
import { bookedFor, bookedForLine } from '../../lib/booked-for.ts';
import { csvStream } from '../../lib/csv.ts';
import { localTimeAt } from '../../lib/local-days.ts';
import type { Manifest, ManifestBooking } from './day-of-trip.service.ts';

// The day's manifest as CSV (GET vendor/manifest/export/): one row per booking, in the manifest's order
// (departures, then pick-ups, then returns not already listed as pick-ups), through the one CSV writer and
// its formula guard (src/lib/csv.ts).

const COLUMNS = [
  'section',
  'local_time',
  'listing_title',
  'booking_id',
  'status',
  'attendance',
  'customer_name',
  'customer_email',
  'customer_phone',
  'participants_count',
  'quantity',
  'starts_at',
  'ends_at',
  'answers',
  'waiver_name',
  'waiver_accepted_at',
  'payment_status',
  'total_price',
  'currency',
  'customer_notes',
] as const;
type Row = Record<(typeof COLUMNS)[number], string | number | null>;

/** Answers as one cell: `code=value` by question, a participant list joined with ` | `. */
const answersCell = (answers: ManifestBooking['answers']) =>
  Object.entries(answers)
    .map(([code, value]) => `${code}=${Array.isArray(value) ? value.map((v) => v ?? '').join(' | ') : value}`)
    .join('; ');

function rowOf(section: string, at: string, timeZone: string, b: ManifestBooking): Row {
  return {
    section,
    local_time: localTimeAt(Date.parse(at), timeZone),
    listing_title: b.listing_title,
    booking_id: b.id,
    status: b.status,
    attendance: b.attendance,
    customer_name: bookedForLine(b),
    customer_email: bookedFor(b).email,
    customer_phone: bookedFor(b).phone,
    participants_count: b.participants_count,
    quantity: b.quantity,
    starts_at: b.starts_at,
    ends_at: b.ends_at,
    answers: answersCell(b.answers),
    waiver_name: b.waiver?.name ?? '',
    waiver_accepted_at: b.waiver?.accepted_at ?? '',
    payment_status: b.payment_status ?? '',
    total_price: b.total_price,
    currency: b.currency,
    customer_notes: b.customer_notes,
  };
}

/** The manifest's rows: a booking picked up and returned the same day is one `pickup+return` row. */
export function manifestRows(manifest: Manifest): Row[] {
  const tz = manifest.time_zone;
  const rows = manifest.departures.flatMap((d) =>
    d.bookings.map((b) => rowOf('departure', d.starts_at, tz, b)),
  );
  const returning = new Set(manifest.returns.map((b) => b.id));
  for (const b of manifest.pickups)
    rows.push(rowOf(returning.has(b.id) ? 'pickup+return' : 'pickup', b.starts_at, tz, b));
  const pickedUp = new Set(manifest.pickups.map((b) => b.id));
  for (const b of manifest.returns) if (!pickedUp.has(b.id)) rows.push(rowOf('return', b.ends_at, tz, b));
  return rows;
}

export function manifestAsCsv(manifest: Manifest): Readable {
  return csvStream(
    (async function* () {
      yield manifestRows(manifest);
    })(),
    COLUMNS,
  );
}
