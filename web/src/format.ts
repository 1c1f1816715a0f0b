// How amounts, times and states read on every page: one place, so the customer site, the dashboard and the
// embed say the same thing the same way.
import type { Schemas } from './api.ts';

/** "45.00" in "eur" → "€45.00" (the API's amounts are decimal strings in lower-case ISO 4217). */
export function money(amount: string | number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
    Number(amount),
  );
}

/** A moment as a reader of that time zone sees it: "Sat, 14 Jun 2026, 10:00". */
export function dateTime(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(new Date(iso));
}

export function date(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone,
  }).format(new Date(iso));
}

/** Booking states as words (decisions §18): what a person reads, never the API's code. */
export const STATUS_WORDS: Record<Schemas['Booking']['status'], string> = {
  requested: 'Requested',
  approved: 'Approved',
  declined: 'Declined',
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

export const statusWord = (status: Schemas['Booking']['status']) => STATUS_WORDS[status];

/** A count with its noun: "1 seat", "3 seats". */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A calendar date the API gives as `YYYY-MM-DD` (a departure's `local_date`, already in the vendor's zone)
 * in words: "Sat, 5 Dec 2026". Read as that date at UTC midnight and shown in UTC, so no zone moves it.
 */
export function calendarDate(localDate: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${localDate}T00:00:00Z`));
}

/** The value of an <input type="datetime-local"> for a moment, in the browser's own time zone. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** An <input type="datetime-local"> value (the browser's time zone) as an ISO moment for the API. */
export const fromLocalInput = (value: string) => new Date(value).toISOString();
