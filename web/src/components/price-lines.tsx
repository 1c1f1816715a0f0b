// A price as the API made it (decisions §21): its lines and the total they add up to. The booking form
// shows a quote's, My bookings and the vendor's booking view a booking's; no price is computed here.
import type { Schemas } from '../api.ts';
import { money } from '../format.ts';

type PriceLine = Schemas['PriceLine'];

export function PriceLines({
  lines,
  total,
  currency,
  label = 'Price',
}: {
  lines: readonly PriceLine[];
  total: string;
  currency: string;
  label?: string;
}) {
  return (
    <div class="price-lines">
      <ul aria-label={label}>
        {lines.map((line) => (
          <li key={`${line.kind}-${line.code ?? ''}`} data-line={line.kind}>
            <span>
              {line.label}{' '}
              {line.kind !== 'discount' && (
                <span class="muted">
                  {line.quantity} × {money(line.unit_price, currency)}
                </span>
              )}
            </span>
            <span class="amount">{money(line.amount, currency)}</span>
          </li>
        ))}
      </ul>
      <p class="total">
        Total: <strong data-total>{money(total, currency)}</strong>
      </p>
    </div>
  );
}
