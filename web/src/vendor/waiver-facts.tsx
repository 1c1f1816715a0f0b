// A booking's waiver acceptance as its vendor sees it (decisions §23): who accepted, when, the fingerprint
// of the exact text, and where from (the client address and User-Agent, shown to the vendor only).
import type { Schemas } from '../api.ts';
import { dateTime } from '../format.ts';

type Waiver = NonNullable<Schemas['Booking']['waiver']>;

export function WaiverFacts({ waiver, timeZone }: { waiver: Waiver; timeZone: string }) {
  return (
    <details class="waiver-facts">
      <summary>
        Waiver accepted by {waiver.name}, {dateTime(waiver.accepted_at, timeZone)}
      </summary>
      <dl>
        <dt>Text fingerprint (SHA-256)</dt>
        <dd class="mono">{waiver.text_sha256}</dd>
        {waiver.client_ip !== undefined && (
          <>
            <dt>Client address</dt>
            <dd class="mono">{waiver.client_ip}</dd>
          </>
        )}
        {waiver.user_agent !== undefined && (
          <>
            <dt>Browser</dt>
            <dd class="user-text">{waiver.user_agent}</dd>
          </>
        )}
      </dl>
    </details>
  );
}
