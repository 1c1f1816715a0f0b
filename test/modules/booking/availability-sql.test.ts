import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../../src/db/database.ts';
import { availabilityFacts } from '../../../src/modules/booking/availability.repository.ts';
import {
  evaluateAvailability,
  heldWindow,
  overlaps,
  type TimeWindow,
  type UnitLimit,
  unitLimitOf,
} from '../../../src/modules/booking/availability.ts';
import { listingAvailableIn } from '../../../src/modules/booking/index.ts';
import { insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';

// listingAvailableIn (SQL, for the catalog's available_from/available_to filter) and
// availabilityFacts (the facts of an availability check or booking request) against the pure
// rules, on the same fixtures inserted straight into the tables.

let t: TestApp;
let vendorId: number;
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const [vendor, customer] = await Promise.all([registerVendor(t.app), registerCustomer(t.app)]);
  vendorId = await vendorProfileId(t.db, vendor.id);
  customerId = customer.id;
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 6, 1);
const ACTIVE = new Set<BookingStatus>(['requested', 'approved', 'confirmed']);

/** A listing's limit fields; default: a single equipment item. */
interface ListingLimits {
  kind: 'equipment' | 'adventure';
  quantity: number;
  capacity: number | null;
  bookingMode: 'private' | 'shared';
  /** equipment: turnaround (rule 6); default 0 */
  bufferMinutes?: number;
}
const SINGLE_ITEM: ListingLimits = { kind: 'equipment', quantity: 1, capacity: null, bookingMode: 'private' };

interface Fixture {
  listing?: ListingLimits;
  slots: { startsAt: number; endsAt: number; isAvailable: boolean }[];
  /** units: the booking's quantity (equipment) or participants (adventures); default 1 */
  bookings: { startsAt: number; endsAt: number; status: BookingStatus; units?: number }[];
}

const limitOf = (fixture: Fixture): UnitLimit => unitLimitOf(fixture.listing ?? SINGLE_ITEM);
const factsOf = (fixture: Fixture) => ({
  slots: fixture.slots,
  bookings: fixture.bookings.map((b) => ({ ...b, units: b.units ?? 1 })),
});

/** Inserts a listing with its slots and bookings; returns its id. */
async function insertFixture(fixture: Fixture): Promise<number> {
  const listing = fixture.listing ?? SINGLE_ITEM;
  const listingId = await insertListing(t.db, {
    vendorId,
    kind: listing.kind,
    quantity: listing.quantity,
    capacity: listing.capacity,
    bookingMode: listing.bookingMode,
    bufferMinutes: listing.bufferMinutes,
  });
  for (const s of fixture.slots)
    await t.db
      .insertInto('availability_slots')
      .values({
        listing_id: listingId,
        vendor_id: vendorId,
        starts_at: s.startsAt,
        ends_at: s.endsAt,
        is_available: s.isAvailable ? 1 : 0,
        created_at: BASE,
        updated_at: BASE,
      })
      .execute();
  for (const b of fixture.bookings)
    await t.db
      .insertInto('bookings')
      .values({
        listing_id: listingId,
        listing_kind: listing.kind,
        vendor_id: vendorId,
        customer_id: customerId,
        status: b.status,
        starts_at: b.startsAt,
        ends_at: b.endsAt,
        participants_count: listing.kind === 'adventure' ? (b.units ?? 1) : null,
        quantity: listing.kind === 'equipment' ? (b.units ?? 1) : null,
        customer_notes: '',
        vendor_notes: '',
        total_price_cents: 100,
        currency: 'usd',
        listing_click_id: null,
        created_at: BASE,
        updated_at: BASE,
      })
      .execute();
  return listingId;
}

async function availableIds(ids: number[], window: TimeWindow): Promise<number[]> {
  const rows = await t.db
    .selectFrom('listings')
    .select('id')
    .where('id', 'in', ids)
    .where(listingAvailableIn(window.startsAt, window.endsAt, BASE))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

// the filter keeps listings with at least one unit or seat free: a request for 1
const expectedIds = (ids: number[], fixtures: Fixture[], window: TimeWindow) =>
  ids.filter(
    (_, i) => evaluateAvailability(window, factsOf(fixtures[i]), limitOf(fixtures[i]), 1).isAvailable,
  );

// A total order: two slots or bookings may share a window and differ only in their other fields.
const sortByStart = <T extends TimeWindow>(bookings: T[]) =>
  bookings.toSorted(
    (a, b) =>
      a.startsAt - b.startsAt || a.endsAt - b.endsAt || JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );

const w = (from: number, to: number): TimeWindow => ({
  startsAt: BASE + from * HOUR,
  endsAt: BASE + to * HOUR,
});

describe('listingAvailableIn', () => {
  it('keeps exactly the listings the rules allow, edges included', async () => {
    const fixtures: Fixture[] = [
      { slots: [], bookings: [] }, // free by default
      { slots: [], bookings: [{ ...w(10, 12), status: 'requested' }] }, // taken
      { slots: [], bookings: [{ ...w(12, 14), status: 'approved' }] }, // touches the window's end
      {
        slots: [],
        bookings: [
          { ...w(10, 12), status: 'cancelled' },
          { ...w(9, 11), status: 'declined' },
        ],
      },
      { slots: [{ ...w(8, 12), isAvailable: true }], bookings: [] }, // covered exactly at the end
      {
        slots: [
          { ...w(8, 11), isAvailable: true },
          { ...w(11, 13), isAvailable: true },
        ],
        bookings: [],
      }, // not one slot
      { slots: [{ ...w(11, 11.5), isAvailable: false }], bookings: [] }, // blocked
      { slots: [{ ...w(0, 10), isAvailable: false }], bookings: [] }, // blocking slot touches the start
      { slots: [{ ...w(20, 22), isAvailable: true }], bookings: [] }, // has slots, none covering
      { slots: [], bookings: [{ ...w(11, 11.25), status: 'confirmed' }] },
    ];
    const ids: number[] = [];
    for (const f of fixtures) ids.push(await insertFixture(f));
    const window = w(10, 12);
    const expected = [ids[0], ids[2], ids[3], ids[4], ids[7]];
    expect(expectedIds(ids, fixtures, window)).toEqual(expected);
    expect(await availableIds(ids, window)).toEqual(expected);
  });

  it('agrees with evaluateAvailability on random fixtures', async () => {
    const span = fc
      .tuple(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 1, max: 12 }))
      .map(([s, l]) => w(s, s + l));
    // Bookings up to four times the longest window: overlap checks bound ends_at by the listing's
    // longest booking, so a long booking around a short window must still be found.
    const bookingSpan = fc
      .tuple(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 1, max: 48 }))
      .map(([s, l]) => w(s, s + l));
    // single items, multi-unit items (with and without a turnaround buffer), private and shared
    // adventures (capacity 1 included)
    const listing = fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(0, 0, 30, 60, 150, 1440))
        .map(([quantity, bufferMinutes]) => ({ ...SINGLE_ITEM, quantity, bufferMinutes })),
      fc.record({
        kind: fc.constant('adventure' as const),
        quantity: fc.constant(1),
        capacity: fc.integer({ min: 1, max: 6 }),
        bookingMode: fc.constantFrom('private' as const, 'shared' as const),
      }),
    );
    const fixture = fc.record({
      listing,
      slots: fc.array(fc.record({ span, isAvailable: fc.boolean() }), { maxLength: 3 }),
      bookings: fc.array(
        fc.record({
          units: fc.integer({ min: 1, max: 3 }),
          span: bookingSpan,
          status: fc.constantFrom<BookingStatus>(
            'requested',
            'approved',
            'declined',
            'cancelled',
            'confirmed',
          ),
        }),
        { maxLength: 5 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fixture, { minLength: 1, maxLength: 4 }), span, async (raw, window) => {
        // No exclusion constraint any more (migration 2026112502): overlapping active bookings may be
        // stored, beyond the limit too, and both implementations must still agree on them.
        const fixtures: Fixture[] = raw.map((f) => ({
          listing: f.listing,
          slots: f.slots.map(({ span: s, isAvailable }) => ({ ...s, isAvailable })),
          bookings: f.bookings.map(({ span: s, status, units }) => ({ ...s, status, units })),
        }));
        const ids: number[] = [];
        for (const f of fixtures) ids.push(await insertFixture(f));
        expect(await availableIds(ids, window)).toEqual(expectedIds(ids, fixtures, window));
        // the facts of a check or request, read one at a time, and for all the listings at once: checks
        // asking together share one statement on PostgreSQL, and each must get its own listing's facts
        const bufferOf = (i: number) => limitOf(fixtures[i]).bufferMs ?? 0;
        const alone = [];
        for (const [i, id] of ids.entries())
          alone.push(await availabilityFacts(t.db, id, window, BASE, bufferOf(i)));
        const together = await Promise.all(
          ids.map((id, i) => availabilityFacts(t.db, id, window, BASE, bufferOf(i))),
        );
        for (const [i, facts] of [...alone, ...together].entries()) {
          const fixture = fixtures[i % ids.length];
          const buffer = bufferOf(i % ids.length);
          const expected = factsOf(fixture).bookings.filter(
            (b) => ACTIVE.has(b.status) && overlaps(heldWindow(b, buffer), heldWindow(window, buffer)),
          );
          expect(sortByStart([...facts.bookings])).toEqual(sortByStart(expected));
          expect(sortByStart([...facts.slots])).toEqual(
            sortByStart(fixture.slots.filter((slot) => overlaps(slot, window))),
          );
          expect(facts.hasAvailableSlots).toBe(fixture.slots.some((slot) => slot.isAvailable));
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('listingAvailableIn with units and seats', () => {
  const kayaks = (quantity: number): ListingLimits => ({ ...SINGLE_ITEM, quantity });
  const tour = (capacity: number, bookingMode: 'private' | 'shared'): ListingLimits => ({
    kind: 'adventure',
    quantity: 1,
    capacity,
    bookingMode,
  });

  it('counts the peak, not the sum: the worked example', async () => {
    // 5 units, 09-11 × 5 and 13-15 × 5
    const full = {
      listing: kayaks(5),
      slots: [],
      bookings: [
        { ...w(9, 11), status: 'requested' as const, units: 5 },
        { ...w(13, 15), status: 'confirmed' as const, units: 5 },
      ],
    };
    const id = await insertFixture(full);
    expect(await availableIds([id], w(10, 14))).toEqual([]); // a 10-14 request for 1 unit conflicts
    expect(await availableIds([id], w(11, 13))).toEqual([id]); // between them all 5 are free
    expect(await availableIds([id], w(14, 16))).toEqual([]);
    expect(evaluateAvailability(w(10, 14), factsOf(full), limitOf(full)).remaining).toBe(0);
    expect(evaluateAvailability(w(11, 13), factsOf(full), limitOf(full)).remaining).toBe(5);
  });

  it('keeps multi-unit items and shared tours with a unit or seat free at every instant', async () => {
    const fixtures: Fixture[] = [
      // 4 held 10-11 only (3 + 1 overlapping), 1 more: free
      {
        listing: kayaks(5),
        slots: [],
        bookings: [
          { ...w(9, 11), status: 'approved', units: 3 },
          { ...w(10, 13), status: 'requested', units: 1 },
        ],
      },
      // 5 held at 11:30 only (inside the window, not at its start): full
      {
        listing: kayaks(5),
        slots: [],
        bookings: [
          { ...w(9, 12), status: 'approved', units: 3 },
          { ...w(11.5, 13), status: 'requested', units: 2 },
        ],
      },
      // sum 6 over the window but never more than 3 at once: free
      {
        listing: kayaks(4),
        slots: [],
        bookings: [
          { ...w(10, 11), status: 'approved', units: 3 },
          { ...w(11, 12), status: 'approved', units: 3 },
        ],
      },
      // full, but by cancelled and declined bookings: free
      {
        listing: kayaks(2),
        slots: [],
        bookings: [
          { ...w(10, 12), status: 'cancelled', units: 2 },
          { ...w(10, 12), status: 'declined', units: 2 },
        ],
      },
      // shared, 12 seats, 7 + 5 overlapping at 11: full
      {
        listing: tour(12, 'shared'),
        slots: [],
        bookings: [
          { ...w(10, 12), status: 'approved', units: 7 },
          { ...w(11, 13), status: 'requested', units: 5 },
        ],
      },
      // shared, 12 seats, 7 + 4: one seat left
      {
        listing: tour(12, 'shared'),
        slots: [],
        bookings: [
          { ...w(10, 12), status: 'approved', units: 7 },
          { ...w(11, 13), status: 'requested', units: 4 },
        ],
      },
      // private, 12 seats, one booking of 2: taken
      { listing: tour(12, 'private'), slots: [], bookings: [{ ...w(11, 12), status: 'approved', units: 2 }] },
      // multi-unit item with a free unit but a blocking slot: not kept
      { listing: kayaks(3), slots: [{ ...w(11, 11.5), isAvailable: false }], bookings: [] },
    ];
    const ids: number[] = [];
    for (const f of fixtures) ids.push(await insertFixture(f));
    const window = w(10, 12);
    const expected = [ids[0], ids[2], ids[3], ids[5]];
    expect(expectedIds(ids, fixtures, window)).toEqual(expected);
    expect(await availableIds(ids, window)).toEqual(expected);
    expect(fixtures.map((f) => evaluateAvailability(window, factsOf(f), limitOf(f)).remaining)).toEqual([
      1, 0, 1, 2, 0, 1, 0, 0,
    ]);
  });
});

describe('overlap checks bounded by the longest booking', () => {
  it('finds a long booking around a short window', async () => {
    const listingId = await insertFixture({
      slots: [],
      bookings: [
        { ...w(0, 2), status: 'confirmed' },
        { ...w(24, 120), status: 'approved' }, // four days
      ],
    });
    const middle = w(70, 72);
    expect((await availabilityFacts(t.db, listingId, middle, BASE)).bookings).toEqual([
      { ...w(24, 120), status: 'approved', units: 1 },
    ]);
    expect(await availableIds([listingId], middle)).toEqual([]);
    expect(await availableIds([listingId], w(119, 121))).toEqual([]);
    expect(await availableIds([listingId], w(120, 121))).toEqual([listingId]);
  });

  it('follows a booking whose window grows after it was written', async () => {
    const listingId = await insertFixture({ slots: [], bookings: [{ ...w(0, 2), status: 'confirmed' }] });
    // No endpoint stretches a booking; the bound must follow any write all the same.
    const stretched = w(0, 200);
    await t.db
      .updateTable('bookings')
      .set({ ends_at: stretched.endsAt })
      .where('listing_id', '=', listingId)
      .execute();
    const late = w(180, 181); // beyond the old bound: end + 2 hours
    expect((await availabilityFacts(t.db, listingId, late, BASE)).bookings).toEqual([
      { ...stretched, status: 'confirmed', units: 1 },
    ]);
    expect(await availableIds([listingId], late)).toEqual([]);
    const span = await t.db
      .selectFrom('listing_booking_spans')
      .select('longest_ms')
      .where('listing_id', '=', listingId)
      .executeTakeFirstOrThrow();
    expect(span.longest_ms).toBe(200 * HOUR);
  });
});
