// The price of what the booking form holds, from the API (POST /booking/quote/, decisions §21): the
// browser never computes a price.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import type { paths } from '../generated/api.d.ts';
import { PriceLines } from './price-lines.tsx';

export type Quote = Schemas['Quote'];
/** A booking request's body, which a quote takes as it is. */
export type QuoteBody = paths['/api/v1/booking/quote/']['post']['requestBody']['content']['application/json'];

/** The quote of `body` (null: nothing to price yet), asked again a moment after it last changed. */
export function useQuote(body: QuoteBody | null): { quote: Quote | null; error: unknown } {
  const [state, setState] = useState<{ quote: Quote | null; error: unknown }>({ quote: null, error: null });
  const key = body === null ? '' : JSON.stringify(body);
  useEffect(() => {
    if (body === null) {
      setState({ quote: null, error: null });
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      call(() => api.POST('/api/v1/booking/quote/', { body })).then(
        (quote) => current && setState({ quote, error: null }),
        (error) => current && setState({ quote: null, error }),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  return state;
}

/** The lines and total as the API priced them (PriceLines), or why there is none yet. */
export function QuoteTotal({ quote, error }: { quote: Quote | null; error: unknown }) {
  if (!quote)
    return (
      <p class="total" aria-live="polite">
        {error ? 'No price for that choice: see the fields above.' : 'Choose when to see the total.'}
      </p>
    );
  return (
    <div aria-live="polite">
      <PriceLines lines={quote.price_lines} total={quote.total_price} currency={quote.currency} />
      {!quote.is_available && <p class="muted">Not available for that choice.</p>}
    </div>
  );
}
