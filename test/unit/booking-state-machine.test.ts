import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../src/db/database.ts';
import { BookingSchema } from '../../src/modules/booking/booking.schemas.ts';
import {
  ACTIVE_STATUSES,
  BOOKING_STATUSES,
  type BookingAction,
  deniedMessage,
  isActiveStatus,
  nextStatus,
  partyOf,
  statusAt,
  TRANSITIONS,
} from '../../src/modules/booking/booking.state-machine.ts';

// Every (state, action) pair, written out as decisions §6 (and §12's vendor-cancel) state it.
const EXPECTED: Record<BookingStatus, Record<BookingAction, BookingStatus | null>> = {
  requested: {
    approve: 'approved',
    decline: 'declined',
    cancel: 'cancelled',
    vendor_cancel: 'cancelled',
    confirm_payment: null,
    expire: 'expired',
    channel_confirm: 'confirmed',
  },
  approved: {
    approve: null,
    decline: 'declined',
    cancel: 'cancelled',
    vendor_cancel: 'cancelled',
    confirm_payment: 'confirmed',
    expire: 'expired',
    channel_confirm: null,
  },
  declined: {
    approve: null,
    decline: null,
    cancel: null,
    vendor_cancel: null,
    confirm_payment: null,
    expire: null,
    channel_confirm: null,
  },
  cancelled: {
    approve: null,
    decline: null,
    cancel: null,
    vendor_cancel: null,
    confirm_payment: null,
    expire: null,
    channel_confirm: null,
  },
  confirmed: {
    approve: null,
    decline: null,
    cancel: 'cancelled',
    vendor_cancel: 'cancelled',
    confirm_payment: null,
    expire: null,
    channel_confirm: null,
  },
  expired: {
    approve: null,
    decline: null,
    cancel: null,
    vendor_cancel: null,
    confirm_payment: null,
    expire: null,
    channel_confirm: null,
  },
};

describe('booking state machine', () => {
  for (const from of BOOKING_STATUSES) {
    for (const action of Object.keys(TRANSITIONS) as BookingAction[]) {
      const expected = EXPECTED[from][action];
      it(`${action} from ${from} → ${expected ?? 'not allowed'}`, () => {
        expect(nextStatus(from, action)).toBe(expected);
      });
    }
  }

  it('names who triggers each action', () => {
    expect(TRANSITIONS.approve.actor).toBe('vendor');
    expect(TRANSITIONS.decline.actor).toBe('vendor');
    expect(TRANSITIONS.cancel.actor).toBe('customer');
    expect(TRANSITIONS.confirm_payment.actor).toBe('system');
    expect(TRANSITIONS.expire.actor).toBe('system');
  });

  it("states each refusal from the action's actor", () => {
    expect(deniedMessage('approve')).toBe("Only the listing's vendor can approve a booking.");
    expect(deniedMessage('decline')).toBe("Only the listing's vendor can decline a booking.");
    expect(deniedMessage('cancel')).toBe("Only the booking's customer can cancel a booking.");
  });

  it("tells the caller's party to a booking: customer first, then the listing's vendor, else none", () => {
    const booking = { customerId: 7, vendorId: 3 };
    expect(partyOf(booking, { id: 7, vendorId: null })).toBe('customer');
    expect(partyOf(booking, { id: 7, vendorId: 3 })).toBe('customer');
    expect(partyOf(booking, { id: 9, vendorId: 3 })).toBe('vendor');
    expect(partyOf(booking, { id: 9, vendorId: 4 })).toBeNull();
    expect(partyOf(booking, { id: 9, vendorId: null })).toBeNull();
  });

  it('shows a requested or approved booking expired from the instant its expires_at passes', () => {
    const at = 1_000_000;
    for (const status of ['requested', 'approved'] as const) {
      expect(statusAt({ status, expires_at: at }, at - 1)).toBe(status);
      expect(statusAt({ status, expires_at: at }, at)).toBe('expired');
    }
    expect(statusAt({ status: 'confirmed', expires_at: null }, at)).toBe('confirmed');
    expect(statusAt({ status: 'expired', expires_at: at }, at - 1)).toBe('expired');
    expect(statusAt({ status: 'requested', expires_at: null }, at)).toBe('requested');
  });

  it('holds the window in requested, approved and confirmed only', () => {
    expect([...ACTIVE_STATUSES]).toEqual(['requested', 'approved', 'confirmed']);
    expect(BOOKING_STATUSES.filter(isActiveStatus)).toEqual(['requested', 'approved', 'confirmed']);
  });

  it('declares exactly the six states in the API schema', () => {
    const status = BookingSchema.properties.status as unknown as { anyOf: { const: string }[] };
    expect(status.anyOf.map((s) => s.const)).toEqual([...BOOKING_STATUSES]);
  });
});
