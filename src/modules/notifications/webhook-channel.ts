import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Clock, systemClock } from '../../lib/clock.ts';
import type { AttemptOutcome, DeliveryAttempt, DeliveryChannel } from './channel.ts';
import { type HostResolver, hostAddresses, lookupHost, type ResolvedAddress } from './public-address.ts';
import { signatureHeader } from './webhook-signature.ts';

// The webhook channel (decisions §14): one Standard Webhooks POST per attempt, safe against server-side
// request forgery. The host is resolved and vetted at every send (a name may point elsewhere since the
// endpoint was saved), and the connection goes to a vetted address only: the request's own DNS lookup is
// replaced by one answering those addresses, so the name cannot be re-resolved to a private address
// between the check and the connect (DNS rebinding). The Host header and the TLS server name stay the
// URL's name. Redirects are never followed, the answer's body is read only up to a small limit, and the
// whole attempt, resolution included, has one deadline.

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** how much of an answer's body is read before the connection is closed */
export const MAX_ANSWER_BYTES = 4096;
const USER_AGENT = 'Waterbook-Webhooks/1.0 (+https://www.standardwebhooks.com)';

export interface WebhookChannelOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: send to loopback, private and other non-public addresses too */
  allowPrivate: boolean;
  resolve?: HostResolver;
  /** the deadline of one attempt */
  timeoutMs?: number;
  /** the webhook-timestamp, and whether a rotated-out secret still signs */
  clock?: Clock;
}

export function createWebhookChannel(options: WebhookChannelOptions): DeliveryChannel {
  const settings = {
    allowPrivate: options.allowPrivate,
    resolve: options.resolve ?? lookupHost,
    timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    clock: options.clock ?? systemClock,
  };
  return { send: (attempt) => sendWebhook(attempt, settings) };
}

const failure = (error: string, statusCode: number | null = null): AttemptOutcome => ({
  delivered: false,
  statusCode,
  error,
});

async function sendWebhook(
  attempt: DeliveryAttempt,
  settings: Required<WebhookChannelOptions>,
): Promise<AttemptOutcome> {
  const { endpoint, event } = attempt;
  if (!endpoint) throw new Error(`webhook delivery ${attempt.delivery.id} has no endpoint`);
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  try {
    const url = new URL(endpoint.url);
    const host = await untilAborted(
      hostAddresses(url.hostname, { allowPrivate: settings.allowPrivate, resolve: settings.resolve }),
      deadline,
    );
    if ('unresolved' in host) return failure(host.unresolved);
    if ('refused' in host) return failure(`refused: ${host.refused}`);
    const now = settings.clock.now().getTime();
    const timestampSeconds = Math.floor(now / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': event.publicId,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': signatureHeader(
        endpoint,
        { webhookId: event.publicId, timestampSeconds, body: event.payload },
        now,
      ),
    };
    return outcomeOf(await post(url, host.addresses, event.payload, headers, deadline));
  } catch (error) {
    if (deadline.aborted) return failure(`timeout after ${settings.timeoutMs / 1000} s`);
    return failure(describeFailure(error));
  }
}

function outcomeOf(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return { delivered: true, statusCode: status, error: null };
  if (status >= 300 && status < 400) return failure(`redirect not followed (HTTP ${status})`, status);
  // "Gone": the receiver asks never to be called again
  if (status === 410) return { ...failure('HTTP 410: endpoint disabled', status), disableEndpoint: true };
  return failure(`HTTP ${status}`, status);
}

/** `work`, or a rejection once `signal` aborts, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * A `lookup` for the request that answers the vetted addresses instead of asking DNS again. Node asks for
 * every address (`all`) when it races IPv4 and IPv6 connections, else for one.
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/** POSTs `body` to `url` over one of `addresses`; resolves with the answer's status. */
function post(
  url: URL,
  addresses: ResolvedAddress[],
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(addresses),
        // a fresh connection each time: never one pooled under a name that may since resolve elsewhere
        agent: false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        // The status decides; the body is read to its end or to the limit only so that a short answer
        // is taken whole before the connection is closed.
        const done = () => {
          response.destroy();
          resolve(status);
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the receiver',
};

/** A short reason for a failed request, safe to show the vendor. */
function describeFailure(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code && FAILURES[code]) return FAILURES[code];
  if (code && /CERT|TLS|SSL/.test(code)) return `TLS error: ${code}`;
  return `request failed: ${code ?? message ?? String(error)}`.slice(0, 200);
}
