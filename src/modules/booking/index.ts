// The booking module's interface for the rest of the service (payments, the catalog's list filter, app).

export { listingAvailableIn, listingBookableIn } from './availability.repository.ts';
export { type AvailabilityVerdict, evaluateAvailability, type TimeWindow } from './availability.ts';
export { bookingRoutes } from './booking.routes.ts';
export { BookingSchema, RefundSchema } from './booking.schemas.ts';
export {
  type Booking,
  type BookingDeps,
  type BookingForPayment,
  type CancellationRefunds,
  type CancelRefundReason,
  type ClickForBooking,
  cappedRefundCents,
  checkLimitEdit,
  confirmApprovedBooking,
  expireLapsedBookings,
  type FindClick,
  findBookingForPayment,
  type PaidAmount,
  type Refund,
  recordBookingEvent,
} from './booking.service.ts';
export {
  ACTIVE_STATUSES,
  BOOKING_STATUSES,
  type BookingParty,
  EXPIRING_STATUSES,
  nextStatus,
  partyOf,
  TRANSITIONS,
} from './booking.state-machine.ts';
export { dayOfTripRoutes } from './day-of-trip.routes.ts';
export type { PaymentStatuses } from './day-of-trip.service.ts';
export { departureRoutes } from './departures.routes.ts';
export { type ExpirySweeper, startExpirySweeper } from './expiry-sweeper.ts';
export { listingAvailableFilter } from './list-filter.ts';
export { promoCodeRoutes } from './promo-codes.routes.ts';
export { resourceRoutes } from './resources.routes.ts';
