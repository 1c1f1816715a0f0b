import { createHmac, randomBytes } from 'node:crypto';
import { DAY_MS } from '../../lib/datetime.ts';

// Standard Webhooks signatures (https://www.standardwebhooks.com, decisions §14). A secret is `whsec_`
// and the base64 of its key; a signature is `v1,` and the base64 HMAC-SHA256, under that key, of
// "<webhook-id>.<webhook-timestamp>.<body>".

const SECRET_PREFIX = 'whsec_';
/** the random key of a new secret (Standard Webhooks asks for 24 to 64 bytes) */
const SECRET_BYTES = 32;

/** After a rotation the old secret signs too, for this long, so receivers can switch keys meanwhile. */
export const PREVIOUS_SECRET_GRACE_MS = DAY_MS;

export const newWebhookSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The `v1,` signature of one message under `secret` (whsec_...). */
export function signWebhook(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header of a message to an endpoint: the signature under its secret, and, until
 * `previous_secret_expires_at`, a second one under the secret it replaced (space-separated, as Standard
 * Webhooks allows: a receiver accepts the message when any signature verifies).
 */
export function signatureHeader(
  endpoint: { secret: string; previous_secret: string | null; previous_secret_expires_at: number | null },
  message: { webhookId: string; timestampSeconds: number; body: string },
  now: number,
): string {
  const sign = (secret: string) =>
    signWebhook(secret, message.webhookId, message.timestampSeconds, message.body);
  const signatures = [sign(endpoint.secret)];
  if (
    endpoint.previous_secret !== null &&
    endpoint.previous_secret_expires_at !== null &&
    now < endpoint.previous_secret_expires_at
  )
    signatures.push(sign(endpoint.previous_secret));
  return signatures.join(' ');
}
