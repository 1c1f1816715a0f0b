// The price of a booking request as the customer shapes it: POST quote (decisions §21), asked again a
// moment after the customer stops changing the form. The API prices; the page only shows its answer.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import type { paths } from '../generated/api.d.ts';

export type Quote = Schemas['Quote'];
/** The body of a booking request, which is also the quote's. */
export type RequestBody =
  paths['/api/v1/booking/quote/']['post']['requestBody']['content']['application/json'];

/** How long the form waits after the last change before asking for a quote. */
const QUIET_MS = 250;

/**
 * The quote of `body` (null: nothing to quote yet), with the API's refusal when it has one (the same 400s
 * as the request, e.g. on promo_code). An answer to an older body never replaces a newer one.
 */
export function useQuote(body: RequestBody | null): { quote: Quote | null; error: unknown } {
  const [quote, setQuote] = useState<Quote | null>(null);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(0);
  const key = body === null ? '' : JSON.stringify(body);
  // the body's content (key), not its identity, decides when to ask again
  useEffect(() => {
    const asked = ++latest.current;
    if (body === null) {
      setQuote(null);
      setError(null);
      return;
    }
    const timer = setTimeout(async () => {
      try {
        const answer = await call(() => api.POST('/api/v1/booking/quote/', { body }));
        if (asked !== latest.current) return;
        setQuote(answer);
        setError(null);
      } catch (e) {
        if (asked !== latest.current) return;
        setQuote(null);
        setError(e);
      }
    }, QUIET_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return { quote, error };
}
