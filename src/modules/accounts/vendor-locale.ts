// A vendor's currency and time zone, checked against what the platform (Node's ICU, through Intl) knows
// rather than a list kept here: the lists then follow ICU's updates with each Node release.

export const DEFAULT_CURRENCY = 'usd';
export const DEFAULT_TIME_ZONE = 'UTC';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code in any case, lower-cased; null when ICU does not know it. */
export function normaliseCurrency(code: string): string | null {
  const upper = code.trim().toUpperCase();
  return CURRENCIES.has(upper) ? upper.toLowerCase() : null;
}

/**
 * An IANA time zone name in any case, or an alias of one, spelled as the platform names the zone
 * (`utc`, `Etc/UTC` → `UTC`; `US/Pacific` → `America/Los_Angeles`; `europe/lisbon` → `Europe/Lisbon`);
 * null when it names no zone. Intl also accepts UTC offsets (`+01:00`): they are not zones (no daylight
 * saving rules), so they are refused.
 */
export function normaliseTimeZone(name: string): string | null {
  let zone: string;
  try {
    zone = new Intl.DateTimeFormat('en', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return /^[+-]/.test(zone) ? null : zone;
}
