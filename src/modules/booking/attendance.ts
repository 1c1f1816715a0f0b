import type { Attendance, BookingStatus, ListingKind } from '../../db/database.ts';
import { HOUR_MS } from '../../lib/datetime.ts';

// Who came on the day (decisions §23): the one rule of which attendance a booking may be given when.
// Pure; the attendance endpoint applies it under the booking's lock, the web app offers the buttons it
// allows.

export const ATTENDANCES = [
  'pending',
  'checked_in',
  'no_show',
  'returned',
] as const satisfies readonly Attendance[];

/** A check-in is accepted from this long before the start (boarding, kit fitting, an early pick-up). */
export const CHECK_IN_OPENS_MS = 24 * HOUR_MS;

export interface AttendanceFacts {
  /** the status shown at `now` (statusAt) */
  status: BookingStatus;
  kind: ListingKind;
  attendance: Attendance;
  startsAt: number;
}

/** Accepted (changed false when it already is `to`: nothing to record), or refused with its reason. */
export type AttendanceVerdict =
  | { ok: true; changed: boolean }
  | { ok: false; code: 'invalid' | 'invalid_state'; message: string };

const refused = (code: 'invalid' | 'invalid_state', message: string): AttendanceVerdict => ({
  ok: false,
  code,
  message,
});

/**
 * Whether a booking may move to attendance `to` at `now`: only a confirmed booking; `checked_in` from
 * CHECK_IN_OPENS_MS before its start, `no_show` from its start, `returned` only for equipment already
 * checked in, `pending` (undo) at any time. The same attendance again is accepted and changes nothing, so
 * a second tap of one button is harmless.
 */
export function attendanceVerdict(facts: AttendanceFacts, to: Attendance, now: number): AttendanceVerdict {
  if (to === 'returned' && facts.kind !== 'equipment')
    return refused('invalid', 'Only equipment is returned; an adventure booking is checked in.');
  if (facts.status !== 'confirmed')
    return refused(
      'invalid_state',
      `Attendance is recorded for confirmed bookings; this one is ${facts.status}.`,
    );
  if (to === facts.attendance) return { ok: true, changed: false };
  if (to === 'checked_in' && now < facts.startsAt - CHECK_IN_OPENS_MS)
    return refused('invalid_state', 'Check-in opens 24 hours before the start.');
  if (to === 'no_show' && now < facts.startsAt)
    return refused('invalid_state', 'A booking can be marked a no-show only from its start.');
  if (to === 'returned' && facts.attendance !== 'checked_in')
    return refused('invalid_state', 'Equipment can be returned only once it has been checked in.');
  return { ok: true, changed: true };
}

/** The history note of a change of attendance: it names the attendance, the status stays. */
export const attendanceNote = (from: Attendance, to: Attendance) => `attendance: ${from} → ${to}`;
