// The booking module's interface for the rest of the service (payments, the catalog's list filter, app).

export { type BookedFor, bookedFor, bookedForLine } from '../../lib/booked-for.ts';
export { listingAvailableIn, listingBookableIn } from './availability.repository.ts';
export { windowStanding } from './availability.service.ts';
export {
  type AvailabilityVerdict,
  cutoffAt,
  type DepartureStatus,
  type DepartureVerdict,
  departureStatus,
  evaluateAvailability,
  type TimeWindow,
  type UnitLimit,
} from './availability.ts';
export {
  type BookingDeps,
  type CancellationRefunds,
  type CancelRefundReason,
  type ClickForBooking,
  cappedRefundCents,
  type FindClick,
  type PaidAmount,
  type Refund,
} from './booking.deps.ts';
export { bookingRoutes } from './booking.routes.ts';
export { BookingSchema, RefundSchema } from './booking.schemas.ts';
export { type ChannelHold, checkLimitEdit, requestChannelBooking } from './booking.service.ts';
export {
  ACTIVE_STATUSES,
  BOOKING_STATUSES,
  type BookingParty,
  EXPIRING_STATUSES,
  nextStatus,
  partyOf,
  statusAt,
  TRANSITIONS,
} from './booking.state-machine.ts';
export { confirmApprovedBooking, expireLapsedBookings } from './booking.transitions.ts';
export {
  type Booking,
  type BookingForPayment,
  findBookingForPayment,
  recordBookingEvent,
} from './booking.view.ts';
export { calendarFeedRoutes, calendarFileRoutes } from './calendar-feed.routes.ts';
export { type BookingEvent, calendarEventOf } from './calendar-feed.ts';
export { bookingCalendar } from './calendar-ics.ts';
export { inFreeCancellation } from './cancellation.ts';
export {
  type ChannelBookingRow,
  type ChannelBookingWhere,
  type ChannelListingFacts,
  channelBookingViews,
  MAX_CHANNEL_BOOKINGS,
} from './channel-bookings.repository.ts';
export {
  type ChannelActor,
  type ChannelBookingRef,
  type ChannelContact,
  cancelChannelBooking,
  channelCaller,
  confirmChannelBooking,
  extendChannelHold,
} from './channel-bookings.service.ts';
export { dayOfTripRoutes } from './day-of-trip.routes.ts';
export type { PaymentStatuses } from './day-of-trip.service.ts';
export { departureRoutes } from './departures.routes.ts';
export { departuresWithVerdicts, isScheduledOffering, MAX_RANGE_DAYS } from './departures.service.ts';
export { type ExpirySweeper, startExpirySweeper } from './expiry-sweeper.ts';
export { listingAvailableFilter } from './list-filter.ts';
export { promoCodeRoutes } from './promo-codes.routes.ts';
export { resourceRoutes } from './resources.routes.ts';
