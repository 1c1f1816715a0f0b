import { parseMoney } from './money.ts';

// An equipment item's rental terms (decisions §20) as a request gives them and as they are stored: its
// rates (prices for a rental period) and its duration limits. Pure: the catalog validates a listing write
// with it; the price rule itself lives in src/modules/booking/pricing.ts.

export const MAX_RATES = 20;
export const MIN_RATE_MINUTES = 15;
export const MAX_RATE_MINUTES = 43_200;
/** A duration limit's range: 15 minutes to a year. */
export const MIN_LIMIT_MINUTES = 15;
export const MAX_LIMIT_MINUTES = 525_600;
export const MAX_BUFFER_MINUTES = 1440;

/** One rate as stored: a rental period and its price in cents for one unit. */
export interface Rate {
  durationMinutes: number;
  priceCents: number;
}

const isIntegerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** What is wrong with a list of rates as a request gives it, by member (`rates.1.duration_minutes`). */
export function ratesErrors(value: unknown, field = 'rates'): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!Array.isArray(value)) {
    errors[field] = 'Enter a list of rates.';
    return errors;
  }
  if (value.length > MAX_RATES) errors[field] = `At most ${MAX_RATES} rates.`;
  const seen = new Set<number>();
  for (const [i, rate] of value.entries()) {
    const at = `${field}.${i}`;
    if (typeof rate !== 'object' || rate === null || Array.isArray(rate)) {
      errors[at] = 'Each rate must be an object {"duration_minutes", "price"}.';
      continue;
    }
    const { duration_minutes: minutes, price } = rate as Record<string, unknown>;
    if (!isIntegerIn(minutes, MIN_RATE_MINUTES, MAX_RATE_MINUTES))
      errors[`${at}.duration_minutes`] =
        `Enter an integer from ${MIN_RATE_MINUTES} to ${MAX_RATE_MINUTES} minutes.`;
    else if (seen.has(minutes))
      errors[`${at}.duration_minutes`] = `Another rate already has ${minutes} minutes.`;
    else seen.add(minutes);
    if (parseMoney(price) === null)
      errors[`${at}.price`] = 'Enter a valid amount with at most two decimals, below 100000000.00.';
  }
  return errors;
}

/** Valid rates (ratesErrors found nothing) in their stored order: shortest first. */
export function normalizeRates(value: readonly Record<string, unknown>[]): Rate[] {
  return value
    .map((r) => ({
      durationMinutes: r.duration_minutes as number,
      priceCents: parseMoney(r.price) as number,
    }))
    .sort((a, b) => a.durationMinutes - b.durationMinutes);
}

/** Stored rates (JSON text of normalizeRates' result). */
export function parseRates(text: string): Rate[] {
  return text === '[]' ? [] : (JSON.parse(text) as Rate[]);
}

/** The duration limits' error, on the member it concerns; min <= max when both are set. */
export function durationLimitErrors(min: number | null, max: number | null): Record<string, string> {
  return min !== null && max !== null && min > max
    ? { max_duration_minutes: 'max_duration_minutes must not be below min_duration_minutes.' }
    : {};
}

/** Why a rental of `minutes` is outside the limits, or null when it fits them. */
export function durationProblem(
  minutes: number,
  limits: { minDurationMinutes: number | null; maxDurationMinutes: number | null },
): string | null {
  const { minDurationMinutes: min, maxDurationMinutes: max } = limits;
  if (min !== null && minutes < min) return `A rental lasts at least ${describeMinutes(min)}.`;
  if (max !== null && minutes > max) return `A rental lasts at most ${describeMinutes(max)}.`;
  return null;
}

/** 90 → "1 h 30 min", 1440 → "1 day", 2880 → "2 days": a limit as a message says it. */
export function describeMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours ? `${hours} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ');
}
