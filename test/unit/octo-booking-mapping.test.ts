import { zBooking } from '@octocloud/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookedFor, bookedForLine } from '../../src/lib/booked-for.ts';
import { channelMoveRefusal } from '../../src/modules/booking/booking.state-machine.ts';
import { channelMayCancel, inFreeCancellation } from '../../src/modules/booking/cancellation.ts';
import { BOOKING_STATUSES, type ChannelBookingRow } from '../../src/modules/booking/index.ts';
import {
  bookedUnitIds,
  demandOfUnitItems,
  octoStatusOf,
  toOctoBooking,
} from '../../src/modules/octo/octo.booking-mapping.ts';

// The pure rules of channel bookings (decisions §24), on random inputs: OCTO unit items as a request's
// demand and back, a booking row as OCTO's Booking (valid against @octocloud/types whatever the row), the
// channel's cancel and moves, and who a booking is for.

const HOUR = 3_600_000;
const code = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const adventure = fc.uniqueArray(code, { maxLength: 4 }).map((codes) => ({
  kind: 'adventure' as const,
  priceCategories: codes.map((c) => ({ code: c, label: c, price_cents: 100 })),
}));
const equipment = fc.constant({ kind: 'equipment' as const, priceCategories: [] });
const listing = fc.oneof(adventure, equipment);
const unitIdsOfListing = (l: { kind: string; priceCategories: readonly { code: string }[] }) =>
  l.kind === 'equipment'
    ? ['unit']
    : l.priceCategories.length
      ? l.priceCategories.map((c) => c.code)
      : ['person'];

describe('unit items as a demand', () => {
  it('count one participant or unit per item, by category when the listing has categories', () => {
    fc.assert(
      fc.property(
        listing.chain((l) =>
          fc.tuple(fc.constant(l), fc.array(fc.constantFrom(...unitIdsOfListing(l)), { maxLength: 30 })),
        ),
        ([l, ids]) => {
          const result = demandOfUnitItems(
            l as never,
            ids.map((unitId) => ({ unitId })),
          );
          if (!('demand' in result)) throw new Error('a known unit was refused');
          if (ids.length === 0) {
            expect(result.demand).toBeNull();
            return;
          }
          const d = result.demand as Record<string, unknown>;
          if (l.kind === 'equipment') {
            expect(d).toEqual({ quantity: ids.length });
            return;
          }
          if (l.priceCategories.length === 0) {
            expect(d).toEqual({ participants_count: ids.length });
            return;
          }
          const counts = d.participants as Record<string, number>;
          expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(ids.length);
          for (const [c, n] of Object.entries(counts)) expect(ids.filter((i) => i === c)).toHaveLength(n);
        },
      ),
    );
  });

  it('name the first unit the listing does not sell', () => {
    fc.assert(
      fc.property(
        listing,
        fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 6 }),
        (l, ids) => {
          const known = unitIdsOfListing(l);
          const firstUnknown = ids.find((i) => !known.includes(i));
          const result = demandOfUnitItems(
            l as never,
            ids.map((unitId) => ({ unitId })),
          );
          if (firstUnknown === undefined) expect('demand' in result).toBe(true);
          else expect(result).toEqual({ unknownUnitId: firstUnknown });
        },
      ),
    );
  });

  it('read back from the booking as the same unit ids', () => {
    fc.assert(
      fc.property(
        listing.chain((l) =>
          fc.tuple(
            fc.constant(l),
            fc.array(fc.constantFrom(...unitIdsOfListing(l)), { minLength: 1, maxLength: 30 }),
          ),
        ),
        ([l, ids]) => {
          const result = demandOfUnitItems(
            l as never,
            ids.map((unitId) => ({ unitId })),
          );
          const d = ('demand' in result ? result.demand : null) as Record<string, unknown>;
          const counts = (d.participants ?? {}) as Record<string, number>;
          // the price engine writes a category line per category asked for, in the listing's order
          const lines = l.priceCategories
            .filter((c) => counts[c.code])
            .map((c) => ({ kind: 'category', code: c.code, quantity: counts[c.code] }));
          const row = {
            listing_kind: l.kind,
            price_lines: JSON.stringify(lines),
            participants_count: l.kind === 'adventure' ? ids.length : null,
            quantity: l.kind === 'equipment' ? ids.length : null,
          };
          expect([...bookedUnitIds(row as never)].sort()).toEqual([...ids].sort());
        },
      ),
    );
  });
});

const START = Date.parse('2026-07-01T08:00:00Z');
const row = fc.record({
  id: fc.integer({ min: 1, max: 1e9 }),
  status: fc.constantFrom(...BOOKING_STATUSES),
  listing_kind: fc.constantFrom('adventure' as const, 'equipment' as const),
  scheduled: fc.boolean(),
  createdBefore: fc.integer({ min: 0, max: 1000 * HOUR }),
  expiresIn: fc.option(fc.integer({ min: -10 * HOUR, max: 10 * HOUR }), { nil: null }),
  confirmed: fc.boolean(),
  hours: fc.integer({ min: 0, max: 200 }),
  cutoff: fc.integer({ min: 0, max: 600 }),
  contact: fc.option(
    fc.record({ name: fc.string({ maxLength: 20 }), email: fc.constantFrom('ana@example.com', null) }),
    { nil: null },
  ),
  participants: fc.integer({ min: 1, max: 9 }),
  zone: fc.constantFrom('Europe/Lisbon', 'Pacific/Kiritimati', 'America/St_Johns', 'UTC'),
  now: fc.integer({ min: START - 400 * HOUR, max: START + 10 * HOUR }),
});

type RowSpec = typeof row extends fc.Arbitrary<infer T> ? T : never;

const asRow = (r: RowSpec): ChannelBookingRow =>
  ({
    id: r.id,
    status: r.status,
    listing_kind: r.listing_kind,
    listing_id: 1,
    listing_public_id: 'dolphin-watch',
    listing_public_id_shared: false,
    listing_scheduled: r.listing_kind === 'adventure' && r.scheduled,
    starts_at: START,
    ends_at: START + 2 * HOUR,
    created_at: r.now - r.createdBefore,
    updated_at: r.now,
    // a hold always has its deadline; no other state has one (decisions §11)
    expires_at: r.status === 'requested' || r.status === 'approved' ? r.now + (r.expiresIn ?? HOUR) : null,
    confirmed_at: r.confirmed ? r.now - 1 : null,
    booking_cutoff_minutes: r.cutoff,
    free_cancellation_hours: r.hours,
    request_ttl_minutes: 60,
    vendor_time_zone: r.zone,
    octo_uuid: '7c8bb7f6-6a43-4a39-9c31-2b8f6f0c0a11',
    reseller_reference: null,
    contact_full_name: r.contact?.name ?? null,
    contact_email: r.contact?.email ?? null,
    contact_phone: null,
    customer_notes: '',
    participants_count: r.listing_kind === 'adventure' ? r.participants : null,
    quantity: r.listing_kind === 'equipment' ? r.participants : null,
    price_lines: null,
    total_price_cents: 4000 * r.participants,
    currency: 'eur',
  }) as unknown as ChannelBookingRow;

describe('a channel booking as OCTO’s Booking', () => {
  it('is valid against @octocloud/types, cancellable as the channel’s cancel rule says', () => {
    fc.assert(
      fc.property(row, (r) => {
        const booking = zBooking.parse(toOctoBooking(asRow(r), r.now));
        expect(booking.unitItems).toHaveLength(r.participants);
        const policy = { freeCancellationHours: r.hours, lateRefundPercent: 0 };
        if (booking.status === 'CONFIRMED')
          expect(booking.cancellable).toBe(inFreeCancellation(policy, START, r.now));
        if (booking.status === 'ON_HOLD') {
          expect(booking.cancellable).toBe(true);
          expect(Date.parse(booking.utcExpiresAt ?? '')).toBeGreaterThan(r.now - 1000);
        } else expect(booking.utcExpiresAt).toBeNull();
        expect(booking.availability?.allDay).toBe(!(r.listing_kind === 'adventure' && r.scheduled));
        expect(booking.availability?.id.startsWith('dolphin-watch@')).toBe(true);
      }),
    );
  });

  it('shows each status as OCTO names it', () => {
    expect(BOOKING_STATUSES.map(octoStatusOf)).toEqual([
      'ON_HOLD',
      'ON_HOLD',
      'CANCELLED',
      'CANCELLED',
      'CONFIRMED',
      'EXPIRED',
    ]);
  });
});

describe('the channel’s moves', () => {
  it('cancel a hold any time, and a confirmed booking only in its free period', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8760 }),
        fc.boolean(),
        fc.integer({ min: -1000 * HOUR, max: 1000 * HOUR }),
        (hours, confirmed, before) => {
          const policy = { freeCancellationHours: hours, lateRefundPercent: 0 };
          const now = START - before;
          expect(channelMayCancel(policy, confirmed, START, now)).toBe(!confirmed || before >= hours * HOUR);
        },
      ),
    );
  });

  it('leave the vendor only vendor-cancel of a channel’s hold, and the channel only its own bookings to confirm', () => {
    for (const status of BOOKING_STATUSES)
      for (const action of ['approve', 'decline', 'cancel', 'vendor_cancel', 'channel_confirm'] as const) {
        const refused = channelMoveRefusal(action, status, 7) !== undefined;
        expect(refused, `${action} from ${status}`).toBe(
          status === 'requested' && (action === 'approve' || action === 'decline'),
        );
        expect(channelMoveRefusal(action, status, null) !== undefined).toBe(action === 'channel_confirm');
      }
  });
});

describe('who a booking is for', () => {
  it('is its customer, else its contact via the channel, else the channel', () => {
    const customer = { first_name: 'Maya', last_name: 'Costa', email: 'maya@example.com', phone_number: '1' };
    const channel = { id: 3, name: 'Harbour Hotel' };
    expect(bookedFor({ customer, contact: null, channel: null })).toEqual({
      name: 'Maya Costa',
      email: 'maya@example.com',
      phone: '1',
      via: null,
    });
    const contact = { full_name: 'Ana Costa', email: 'ana@example.com', phone_number: null };
    expect(bookedForLine({ customer: null, contact, channel })).toBe('Ana Costa (via Harbour Hotel)');
    expect(
      bookedFor({ customer: null, contact: { full_name: null, email: null, phone_number: null }, channel }),
    ).toEqual({ name: 'Harbour Hotel', email: '', phone: '', via: 'Harbour Hotel' });
    expect(bookedForLine({ customer: null, contact: null, channel })).toBe('Harbour Hotel');
  });
});
