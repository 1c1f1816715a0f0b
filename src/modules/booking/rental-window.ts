import { MINUTE_MS } from '../../lib/datetime.ts';
import { type OpeningHours, windowOutsideHours } from '../../lib/opening-hours.ts';
import { durationProblem } from '../../lib/rental-terms.ts';
import type { TimeWindow } from './availability.ts';

/** What an equipment window must respect besides units and slots (decisions §20). */
export interface RentalTerms {
  minDurationMinutes: number | null;
  maxDurationMinutes: number | null;
  openingHours: OpeningHours | null;
  timeZone: string;
}

/**
 * Why an equipment rental window breaks its item's duration limits (on ends_at) or its vendor's opening
 * hours (on starts_at and/or ends_at, naming the hours); empty when it keeps them. Every path judging a
 * window uses it: a request and a quote refuse it (400), the availability check answers unavailable.
 */
export function rentalWindowErrors(terms: RentalTerms, window: TimeWindow): Record<string, string> {
  const errors: Record<string, string> = windowOutsideHours(terms.openingHours, terms.timeZone, window);
  const tooLongOrShort = durationProblem((window.endsAt - window.startsAt) / MINUTE_MS, terms);
  if (tooLongOrShort) errors.ends_at = tooLongOrShort;
  return errors;
}
