import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { normalizeExtras, normalizePriceCategories } from '../lib/price-settings.ts';
import { normalizeSchedule } from '../lib/schedule.ts';
import { addMissingListings, BENCH_TOUR_TIMES, benchVendorId } from './seed-bench.ts';

// The bench's priced tours (decisions §21): scheduled tours like the bench tours, sold by category with
// extras, and the bench vendor's promo code, for the quote and priced-request scenarios (bench/run.ts).

export const BENCH_PRICED_TOURS = 20;
export const benchPricedTourPublicId = (n: number) => `bench-priced-${String(n).padStart(2, '0')}`;
export const BENCH_PROMO_CODE = 'BENCH10';

/** Adds the priced tours and the promo code that are missing; how many rows it added. */
export async function seedBenchPrices(db: Kysely<Database>, now: number): Promise<number> {
  const wanted = Array.from({ length: BENCH_PRICED_TOURS }, (_, i) => benchPricedTourPublicId(i + 1));
  const schedule = [
    { weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_times: BENCH_TOUR_TIMES },
  ];
  const categories = normalizePriceCategories([
    { code: 'adult', label: 'Adult', price: '35.00' },
    { code: 'child', label: 'Child', price: '20.00' },
  ]);
  const extras = normalizeExtras([
    { code: 'wetsuit', label: 'Wetsuit', price: '5.00', per: 'day', max_quantity: 10 },
    { code: 'gopro', label: 'GoPro', price: '15.00', per: 'booking', max_quantity: 1 },
  ]);
  const tours = await addMissingListings(db, now, 'adventure', wanted, (publicId) => ({
    kind: 'adventure' as const,
    public_id: publicId,
    title: `Bench priced tour ${publicId.slice(-2)}`,
    description: 'Adults, children, wetsuits and a camera.',
    details: '{}',
    location: 'Lisbon',
    price_cents: 3500,
    duration_minutes: 90,
    // seats enough that every request of a bench run is accepted
    capacity: 10_000,
    booking_mode: 'shared' as const,
    schedule: JSON.stringify(normalizeSchedule(schedule)),
    price_categories: JSON.stringify(categories),
    extras: JSON.stringify(extras),
    is_active: 1 as const,
    archived_at: null,
  }));
  const vendor = { id: await benchVendorId(db) };
  const code = await db
    .selectFrom('promo_codes')
    .select('id')
    .where('vendor_id', '=', vendor.id)
    .where('code', '=', BENCH_PROMO_CODE)
    .executeTakeFirst();
  if (code) return tours;
  // a limit the runs never reach, so that every request counts the code's redemptions under its lock
  await db
    .insertInto('promo_codes')
    .values({
      vendor_id: vendor.id,
      code: BENCH_PROMO_CODE,
      percent_off: 10,
      amount_off_cents: null,
      valid_from: null,
      valid_until: null,
      max_redemptions: 100_000_000,
      listing_ids: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return tours + 1;
}
