// Datetimes cross the API as ISO 8601 strings and are stored as epoch milliseconds (UTC).

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

/** The number written in s[from, from + length), or NaN if a character there is not a digit. */
function digitsAt(s: string, from: number, length: number): number {
  let value = 0;
  for (let i = from; i < from + length; i++) {
    const digit = s.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The form this API writes and clients mostly send back, "2026-07-01T10:00:00Z" or with milliseconds
 * ".000Z", read without the regular expression, which costs several times as much (availability checks
 * and booking requests read two). The same result as the general path, or undefined for anything else,
 * which the general path then reads.
 */
function parseUtcSeconds(s: string): number | null | undefined {
  const n = s.length;
  if ((n !== 20 && n !== 24) || s[n - 1] !== 'Z' || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T') return;
  if (s[13] !== ':' || s[16] !== ':' || (n === 24 && s[19] !== '.')) return;
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hour = digitsAt(s, 11, 2);
  const minute = digitsAt(s, 14, 2);
  const second = digitsAt(s, 17, 2);
  const millis = n === 24 ? digitsAt(s, 20, 3) : 0;
  // NaN anywhere makes the sum NaN; the years 0-99 take the general path's way around Date.UTC
  if (!(year + month + day + hour + minute + second + millis >= 0) || year < 100) return;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return Date.UTC(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/**
 * Parses an ISO 8601 date or datetime. A zone of Z or an offset is honoured; a value without a zone is
 * UTC. Returns null for anything else, including impossible dates such as 2026-02-30.
 */
export function parseDateTime(input: string): number | null {
  const utc = parseUtcSeconds(input);
  if (utc !== undefined) return utc;
  const m = ISO_8601.exec(input.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = frac ? Number(frac.padEnd(3, '0').slice(0, 3)) : 0;
  // Date.UTC reads the years 0-99 as 1900-1999; setUTCFullYear takes the year as written.
  const midnight =
    year >= 100 ? Date.UTC(year, month - 1, day) : new Date(0).setUTCFullYear(year, month - 1, day);
  const local = midnight + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  return local - offsetMinutes * 60_000;
}

const MAX_TIME_MS = 8.64e15;
/** "YYYY-MM-DDT" by day number, for the days recently formatted (a response names few days). */
const datePrefixes = new Map<number, string>();

/**
 * ISO 8601 in UTC with milliseconds, exactly as Date.prototype.toISOString writes it. Only the date part
 * comes from toISOString, once per day seen: a booking's answer formats a handful of instants, and
 * toISOString costs more than the arithmetic for the time of day.
 */
export function formatDateTime(ms: number): string {
  // fractions, NaN and times beyond a Date's range: as toISOString has it (truncated, or a RangeError)
  if (!Number.isInteger(ms) || Math.abs(ms) > MAX_TIME_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = datePrefixes.get(day);
  if (prefix === undefined) {
    const iso = new Date(ms).toISOString();
    prefix = iso.slice(0, iso.indexOf('T') + 1);
    if (datePrefixes.size >= 1024) datePrefixes.clear();
    datePrefixes.set(day, prefix);
  }
  const inDay = ms - day * DAY_MS;
  const hours = Math.floor(inDay / HOUR_MS);
  const minutes = Math.floor(inDay / 60_000) % 60;
  const seconds = Math.floor(inDay / 1000) % 60;
  const millis = inDay % 1000;
  return `${prefix}${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
