import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Attendance, BookingStatus } from '../../src/db/database.ts';
import { HOUR_MS } from '../../src/lib/datetime.ts';
import {
  ATTENDANCES,
  type AttendanceFacts,
  attendanceNote,
  attendanceVerdict,
  CHECK_IN_OPENS_MS,
} from '../../src/modules/booking/attendance.ts';

// decisions §23: who came, and when each attendance may be recorded.

const START = Date.UTC(2026, 6, 1, 9);
const facts = (over: Partial<AttendanceFacts> = {}): AttendanceFacts => ({
  status: 'confirmed',
  kind: 'equipment',
  attendance: 'pending',
  startsAt: START,
  ...over,
});
const ok = (changed = true) => ({ ok: true, changed });
const early = (message: string) => ({ ok: false, code: 'invalid_state', message });

describe('attendance', () => {
  it('checks in from 24 hours before the start, not a millisecond earlier', () => {
    expect(attendanceVerdict(facts(), 'checked_in', START - CHECK_IN_OPENS_MS)).toEqual(ok());
    expect(attendanceVerdict(facts(), 'checked_in', START - CHECK_IN_OPENS_MS - 1)).toEqual(
      early('Check-in opens 24 hours before the start.'),
    );
    expect(CHECK_IN_OPENS_MS).toBe(24 * HOUR_MS);
    // and any time later, the day after included
    expect(attendanceVerdict(facts(), 'checked_in', START + 30 * HOUR_MS)).toEqual(ok());
  });

  it('marks a no-show from the start, not before', () => {
    expect(attendanceVerdict(facts(), 'no_show', START)).toEqual(ok());
    expect(attendanceVerdict(facts(), 'no_show', START - 1)).toEqual(
      early('A booking can be marked a no-show only from its start.'),
    );
    // a late arrival: from no-show to checked in
    expect(attendanceVerdict(facts({ attendance: 'no_show' }), 'checked_in', START + HOUR_MS)).toEqual(ok());
  });

  it('returns equipment only once checked in; never an adventure', () => {
    expect(attendanceVerdict(facts({ attendance: 'checked_in' }), 'returned', START - HOUR_MS)).toEqual(ok());
    for (const from of ['pending', 'no_show'] as const)
      expect(attendanceVerdict(facts({ attendance: from }), 'returned', START + HOUR_MS)).toEqual(
        early('Equipment can be returned only once it has been checked in.'),
      );
    expect(
      attendanceVerdict(facts({ kind: 'adventure', attendance: 'checked_in' }), 'returned', START),
    ).toEqual({
      ok: false,
      code: 'invalid',
      message: 'Only equipment is returned; an adventure booking is checked in.',
    });
  });

  it('undoes to pending at any time, from every attendance', () => {
    for (const from of ['checked_in', 'no_show', 'returned'] as const)
      expect(attendanceVerdict(facts({ attendance: from }), 'pending', START - 100 * HOUR_MS)).toEqual(ok());
  });

  it('is recorded for confirmed bookings only, whatever is asked', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BookingStatus>('requested', 'approved', 'declined', 'cancelled', 'expired'),
        fc.constantFrom<Attendance>('pending', 'checked_in', 'no_show'),
        fc.integer({ min: -100, max: 100 }),
        (status, to, hours) => {
          const verdict = attendanceVerdict(facts({ status }), to, START + hours * HOUR_MS);
          expect(verdict).toEqual(
            early(`Attendance is recorded for confirmed bookings; this one is ${status}.`),
          );
        },
      ),
    );
  });

  it('accepts the same attendance again without a change, at any time', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTENDANCES), fc.integer({ min: -100, max: 100 }), (a, hours) => {
        expect(attendanceVerdict(facts({ attendance: a }), a, START + hours * HOUR_MS)).toEqual(ok(false));
      }),
    );
  });

  it('every transition of a confirmed equipment booking follows the three timing rules', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ATTENDANCES),
        fc.constantFrom(...ATTENDANCES),
        fc.integer({ min: -48 * 60, max: 48 * 60 }),
        (from, to, minutes) => {
          const now = START + minutes * 60_000;
          const verdict = attendanceVerdict(facts({ attendance: from }), to, now);
          const allowed =
            from === to ||
            to === 'pending' ||
            (to === 'checked_in' && now >= START - CHECK_IN_OPENS_MS) ||
            (to === 'no_show' && now >= START) ||
            (to === 'returned' && from === 'checked_in');
          expect(verdict.ok).toBe(allowed);
        },
      ),
    );
  });

  it('notes name the attendance', () => {
    expect(attendanceNote('pending', 'checked_in')).toBe('attendance: pending → checked_in');
  });
});
