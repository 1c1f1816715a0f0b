import type { Static } from 'typebox';
import { localDateAt, localDay } from '../../lib/local-days.ts';
import { departuresWithVerdicts, MAX_RANGE_DAYS, windowStanding } from '../booking/index.ts';
import type { ListingRef } from '../catalog/index.ts';
import type { ChannelIdentity } from '../channels/index.ts';
import { badRequest, invalidAvailabilityId, invalidOptionId, invalidUnitId } from './octo.errors.ts';
import {
  availabilityIdOf,
  closedDayStanding,
  departureStanding,
  localDatesBetween,
  openingDayOf,
  parseAvailabilityId,
  type Standing,
  toOctoAvailability,
  toOctoCalendarDay,
  windowStandingOf,
} from './octo.mapping.ts';
import { availabilityTypeOf, OPTION_ID, unitsOf } from './octo.products.ts';
import type { AvailabilityCalendarBody, AvailabilityCheckBody } from './octo.schemas.ts';
import { type OctoDeps, productOf } from './octo.service.ts';

// POST availability and POST availability/calendar (decisions §24): a START_TIME product's availabilities
// are its departures with their §19 verdicts (the departures service decides, nothing here); an
// OPENING_HOURS product has one per local date, the window of its hours, judged as the availability check
// judges a window (windowStanding).

type Range = { start: string; end: string };

/** The asked units, each a unit of the product (else INVALID_UNIT_ID); their sum, at least 1. */
function unitsAsked(listing: ListingRef, asked: { id: string; quantity: number }[] | undefined): number {
  const known = new Set(unitsOf(listing).map((u) => u.id));
  for (const unit of asked ?? []) if (!known.has(unit.id)) throw invalidUnitId(unit.id);
  return Math.max(
    1,
    (asked ?? []).reduce((sum, u) => sum + u.quantity, 0),
  );
}

/** A range of local dates, both real, the end not before the start, at most MAX_RANGE_DAYS long. */
function checkedRange(start: string | undefined, end: string | undefined): Range {
  if (start === undefined || end === undefined)
    throw badRequest('localDateStart and localDateEnd are required');
  if (!localDay(start, 'UTC') || !localDay(end, 'UTC'))
    throw badRequest('localDateStart and localDateEnd must be real dates, YYYY-MM-DD');
  if (end < start) throw badRequest('localDateEnd must not be before localDateStart');
  if (localDatesBetween(start, end).length > MAX_RANGE_DAYS)
    throw badRequest(`The range may span at most ${MAX_RANGE_DAYS} days`);
  return { start, end };
}

/** The product, option and units a body asks about: each known, else OCTO's INVALID_*_ID naming it. */
async function askedProduct(
  deps: OctoDeps,
  channel: ChannelIdentity,
  body: { productId?: string; optionId?: string; units?: { id: string; quantity: number }[] },
) {
  const { listing, productId } = await productOf(deps, channel, body.productId ?? '');
  if ((body.optionId ?? '') !== OPTION_ID) throw invalidOptionId(body.optionId ?? '');
  return { listing, productId, units: unitsAsked(listing, body.units) };
}

/** The standings of a product's availabilities on the range's dates, each with its id and its date's hours. */
async function standingsIn(
  deps: OctoDeps,
  listing: ListingRef,
  productId: string,
  range: Range,
  now: number,
) {
  const tz = listing.timeZone;
  const dates = localDatesBetween(range.start, range.end);
  const out: {
    id: string;
    date: string;
    standing: Standing;
    hours: { from: string; to: string }[] | null;
  }[] = [];
  if (availabilityTypeOf(listing) === 'START_TIME') {
    const from = localDay(range.start, tz)?.from ?? 0;
    const to = localDay(range.end, tz)?.to ?? 0;
    const { departures } = await departuresWithVerdicts(
      deps.db,
      listing,
      { startsAt: from, endsAt: to },
      now,
    );
    for (const { departure, verdict } of departures)
      out.push({
        id: availabilityIdOf(productId, { startsAt: departure.startsAt }, tz),
        date: departure.localDate,
        standing: departureStanding(departure, verdict),
        hours: null,
      });
    return out;
  }
  for (const date of dates) {
    const day = openingDayOf(date, listing.openingHours, tz);
    const id = availabilityIdOf(productId, { date }, tz);
    if (!day) {
      out.push({ id, date, standing: closedDayStanding(date, tz, listing.bookingCutoffMinutes), hours: [] });
      continue;
    }
    const window = { startsAt: day.startsAt, endsAt: day.endsAt };
    const judged = await windowStanding(deps.db, listing, window, {}, now);
    out.push({ id, date, standing: windowStandingOf(window, judged, listing), hours: day.openingHours });
  }
  return out;
}

/** POST availability/calendar: one entry per local date of the range. */
export async function availabilityCalendar(
  deps: OctoDeps,
  channel: ChannelIdentity,
  body: Static<typeof AvailabilityCalendarBody>,
) {
  const { listing, productId, units } = await askedProduct(deps, channel, body);
  const range = checkedRange(body.localDateStart, body.localDateEnd);
  const standings = await standingsIn(deps, listing, productId, range, deps.clock.now().getTime());
  return localDatesBetween(range.start, range.end).map((date) => {
    const ofDate = standings.filter((s) => s.date === date);
    return toOctoCalendarDay(
      date,
      ofDate.map((s) => s.standing),
      ofDate[0]?.hours ?? [],
      units,
    );
  });
}

/** POST availability: by a local date, a range of them, or availability ids. */
export async function availabilityCheck(
  deps: OctoDeps,
  channel: ChannelIdentity,
  body: Static<typeof AvailabilityCheckBody>,
) {
  const { listing, productId, units } = await askedProduct(deps, channel, body);
  const now = deps.clock.now().getTime();
  const show = (s: { id: string; standing: Standing; hours: { from: string; to: string }[] | null }) =>
    toOctoAvailability(s.id, s.standing, listing.timeZone, s.hours, units);
  if (body.availabilityIds !== undefined) {
    const found = [];
    for (const id of body.availabilityIds) {
      const parsed = parseAvailabilityId(id);
      if (!parsed || parsed.productId !== productId) throw invalidAvailabilityId(id);
      const date = parsed.at.date ?? localDateAt(parsed.at.startsAt, listing.timeZone);
      const match = (await standingsIn(deps, listing, productId, { start: date, end: date }, now)).find(
        (s) => s.id === id,
      );
      if (!match) throw invalidAvailabilityId(id);
      found.push(show(match));
    }
    return found;
  }
  const range =
    body.localDate !== undefined
      ? checkedRange(body.localDate, body.localDate)
      : body.localDateStart !== undefined || body.localDateEnd !== undefined
        ? checkedRange(body.localDateStart, body.localDateEnd)
        : null;
  if (!range)
    throw badRequest('either localDate, localDateStart/localDateEnd or availabilityIds is required');
  return (await standingsIn(deps, listing, productId, range, now)).map(show);
}
