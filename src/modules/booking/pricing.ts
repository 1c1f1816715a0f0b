import type { ListingKind } from '../../db/database.ts';
import { DAY_MS } from '../../lib/datetime.ts';

/** Rental days of an equipment booking: the duration in 24-hour days, rounded up (so at least 1). */
export function rentalDays(startsAt: number, endsAt: number): number {
  return Math.max(1, Math.ceil((endsAt - startsAt) / DAY_MS));
}

/**
 * The server-computed total in cents (integers only): equipment is days × price per day × units, an
 * adventure participants × price per person.
 */
export function totalPriceCents(
  kind: ListingKind,
  unitPriceCents: number,
  window: { startsAt: number; endsAt: number },
  booked: { participants: number | null; quantity: number | null },
): number {
  return kind === 'equipment'
    ? rentalDays(window.startsAt, window.endsAt) * unitPriceCents * (booked.quantity ?? 1)
    : (booked.participants ?? 1) * unitPriceCents;
}
