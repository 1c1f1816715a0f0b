// Date ranges of the analytics pages: whole local days of this browser, sent to the API as instants.

/** A `YYYY-MM-DD` date of this browser's calendar. */
export const localDate = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** `[from, to)` covering the local dates `first` to `last`, both included. */
export function dateRange(first: string, last: string): { from: string; to: string } {
  const end = new Date(`${last}T00:00`);
  end.setDate(end.getDate() + 1);
  return { from: new Date(`${first}T00:00`).toISOString(), to: end.toISOString() };
}

/** The last `days` local days, today included, as first and last dates. */
export function lastDaysDates(days: number): { first: string; last: string } {
  const today = new Date();
  const first = new Date(today);
  first.setDate(today.getDate() - (days - 1));
  return { first: localDate(first), last: localDate(today) };
}

export function lastDays(days: number): { from: string; to: string } {
  const { first, last } = lastDaysDates(days);
  return dateRange(first, last);
}
