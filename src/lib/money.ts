// Money is integer minor units (cents) everywhere inside the service; "45.00" only at the API edge.

export const MAX_MONEY_CENTS = 100_000_000 * 100; // amounts must stay below 100,000,000.00

const DECIMAL = /^\d+(?:\.\d{1,2})?$/;

/** Parses "45", "45.5", "45.50" or the number 45.5 into cents; null when not a valid amount. */
export function parseMoney(input: unknown): number | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return null;
  }
  if (!DECIMAL.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return cents < MAX_MONEY_CENTS ? cents : null;
}

export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
