import { DAY_MS } from '../../lib/datetime.ts';

/** A click may attribute a booking for 90 days from the moment it was recorded (spec "Limits"). */
export const ATTRIBUTION_WINDOW_MS = 90 * DAY_MS;

export interface AttributionClick {
  id: number;
  listingId: number;
  createdAt: number;
}

/** Valid when the click is for the booked listing and at most 90 days old at `now` (the edge included). */
export function isValidAttribution(click: AttributionClick, listingId: number, now: number): boolean {
  return click.listingId === listingId && now - click.createdAt <= ATTRIBUTION_WINDOW_MS;
}
