// The price of what the booking form holds, from the API (POST /booking/quote/, decisions §21): the
// browser never computes a price.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { money } from '../format.ts';
import type { paths } from '../generated/api.d.ts';

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

/** The total and its lines as the API priced them, or why there is none yet. */
export function QuoteTotal({ quote, error }: { quote: Quote | null; error: unknown }) {
  if (!quote)
    return (
      <p class="total" aria-live="polite">
        {error ? 'No price for that choice: see the fields above.' : 'Choose when to see the total.'}
      </p>
    );
  return (
    <div class="total" aria-live="polite">
      <p>
        Total: <strong data-total>{money(quote.total_price, quote.currency)}</strong>
        {!quote.is_available && <span class="muted"> (not available for that choice)</span>}
      </p>
      <ul class="price-lines">
        {quote.price_lines.map((line) => (
          <li key={`${line.kind}-${line.code ?? ''}`}>
            {line.label}: {line.quantity} × {money(line.unit_price, quote.currency)} ={' '}
            {money(line.amount, quote.currency)}
          </li>
        ))}
      </ul>
    </div>
  );
}
