import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '../../src/modules/booking/booking.state-machine.ts';
import {
  bookingUid,
  calendarEventOf,
  eventStatus,
  eventSummary,
  FEED_AHEAD_DAYS,
  FEED_PAST_DAYS,
  feedWindow,
  inFeed,
  partySize,
} from '../../src/modules/booking/calendar-feed.ts';

// The calendar feed's rules (decisions §24) as properties: which bookings a feed carries at a time, and
// what each event says.

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 6, 1, 12);

const candidate = fc
  .record({
    status: fc.constantFrom(...BOOKING_STATUSES),
    expires_at: fc.option(fc.integer({ min: NOW - 2 * DAY, max: NOW + 2 * DAY }), { nil: null }),
    starts_at: fc.integer({ min: NOW - 40 * DAY, max: NOW + 370 * DAY }),
    length: fc.integer({ min: 1, max: 10 * DAY }),
  })
  .map(({ length, ...b }) => ({ ...b, ends_at: b.starts_at + length }));

describe('inFeed', () => {
  it('keeps a booking exactly when it holds and its window ends 30 days back or later, starting within 365 days', () => {
    fc.assert(
      fc.property(candidate, fc.integer({ min: NOW - DAY, max: NOW + DAY }), (b, now) => {
        const holds =
          b.status === 'confirmed' ||
          ((b.status === 'requested' || b.status === 'approved') &&
            (b.expires_at === null || b.expires_at > now));
        const inWindow =
          b.ends_at >= now - FEED_PAST_DAYS * DAY && b.starts_at <= now + FEED_AHEAD_DAYS * DAY;
        expect(inFeed(b, now)).toBe(holds && inWindow);
      }),
    );
  });

  it('has its edges at exactly 30 days back and 365 days ahead, both included', () => {
    const { endsFrom, startsUntil } = feedWindow(NOW);
    expect([endsFrom, startsUntil]).toEqual([NOW - 30 * DAY, NOW + 365 * DAY]);
    const at = (starts_at: number, ends_at: number) =>
      inFeed({ status: 'confirmed', expires_at: null, starts_at, ends_at }, NOW);
    expect(at(endsFrom - DAY, endsFrom)).toBe(true);
    expect(at(endsFrom - DAY, endsFrom - 1)).toBe(false);
    expect(at(startsUntil, startsUntil + DAY)).toBe(true);
    expect(at(startsUntil + 1, startsUntil + DAY)).toBe(false);
  });

  it('drops a hold from the instant its deadline passes', () => {
    const b = { status: 'requested' as const, expires_at: NOW, starts_at: NOW + DAY, ends_at: NOW + 2 * DAY };
    expect(inFeed(b, NOW - 1)).toBe(true);
    expect(inFeed(b, NOW)).toBe(false);
  });
});

describe('what an event says', () => {
  it('counts participants of an adventure and units of equipment, in the singular for one', () => {
    expect(partySize({ participants_count: 3, quantity: null })).toBe('3 participants');
    expect(partySize({ participants_count: 1, quantity: null })).toBe('1 participant');
    expect(partySize({ participants_count: null, quantity: 2 })).toBe('2 units');
    expect(partySize({ participants_count: null, quantity: 1 })).toBe('1 unit');
    expect(eventSummary('Sunset boat tour', 'Rita Sousa', { participants_count: 3, quantity: null })).toBe(
      'Sunset boat tour — Rita Sousa, 3 participants',
    );
    expect(eventSummary('Double kayak', null, { participants_count: null, quantity: 2 })).toBe(
      'Double kayak — 2 units',
    );
  });

  it('is tentative until confirmed', () => {
    for (const status of BOOKING_STATUSES)
      expect(eventStatus(status)).toBe(status === 'confirmed' ? 'CONFIRMED' : 'TENTATIVE');
  });

  it('has one UID per booking and installation, whatever the page it links to', () => {
    expect(bookingUid(41, 'https://book.example')).toBe('booking-41@book.example');
    expect(bookingUid(41, 'http://localhost:8000')).toBe('booking-41@localhost:8000');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (a, b) => {
          expect(bookingUid(a, 'https://book.example') === bookingUid(b, 'https://book.example')).toBe(
            a === b,
          );
        },
      ),
    );
    const facts = {
      id: 41,
      status: 'approved' as const,
      starts_at: NOW,
      ends_at: NOW + 2 * 3_600_000,
      participants_count: 3,
      quantity: null,
      listing_title: 'Sunset boat tour',
      location: 'Marina de Lagos',
      booked_for: 'Rita Sousa',
      updated_at: NOW - DAY,
    };
    const vendorEvent = calendarEventOf(facts, 'https://book.example', '/vendor/bookings/41');
    const customerEvent = calendarEventOf(facts, 'https://book.example', '/bookings/41');
    expect(vendorEvent).toEqual({
      uid: 'booking-41@book.example',
      start: new Date(NOW),
      end: new Date(NOW + 2 * 3_600_000),
      summary: 'Sunset boat tour — Rita Sousa, 3 participants',
      status: 'TENTATIVE',
      location: 'Marina de Lagos',
      url: 'https://book.example/vendor/bookings/41',
      stamp: new Date(NOW - DAY),
    });
    expect({ ...customerEvent, url: vendorEvent.url }).toEqual(vendorEvent);
  });
});
