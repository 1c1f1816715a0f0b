import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What the service needs of a card gateway. Only the payments module knows which one runs; the mock
 * below is the built-in one (and today the only one).
 */
export interface PaymentGateway {
  readonly mocked: boolean;
  createIntent(input: { amountCents: number; currency: string; bookingId: number }): Promise<GatewayIntent>;
  /** Cancels an intent nobody has started paying, so the gateway refuses any later attempt on it. */
  cancelIntent(intentId: string): Promise<void>;
  /**
   * Refunds part or all of a charge. `idempotencyKey` names the refund (our refund row's id): the gateway
   * makes one refund per key however often it is asked, so a refund retried after a crash is never made
   * twice. Answers the refund's outcome; throws when the outcome is unknown (the call may have been made),
   * and the refund is then asked again later with the same key.
   */
  refund(input: GatewayRefundInput): Promise<GatewayRefund>;
  /** A charge id for a succeeded payment whose event carried none. */
  newChargeId(): string;
  /** Throws WebhookSignatureError unless the raw body carries a valid, fresh signature. */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowMs: number): void;
}

export interface GatewayIntent {
  intentId: string;
  clientSecret: string;
}

export interface GatewayRefundInput {
  chargeId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
}

export interface GatewayRefund {
  refundId: string;
  status: 'succeeded' | 'failed';
}

export class WebhookSignatureError extends Error {}

export const SIGNATURE_HEADER = 'gateway-signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  // 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` */
export function signWebhook(secret: string, rawBody: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

function parseSignature(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value ?? '')) t = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value ?? '')) v1.push(value.toLowerCase());
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

export class MockGateway implements PaymentGateway {
  readonly mocked = true;
  readonly #webhookSecret: string | null;

  constructor(webhookSecret: string | null) {
    this.#webhookSecret = webhookSecret;
  }

  async createIntent(): Promise<GatewayIntent> {
    const intentId = `pi_mock_${base62(24)}`;
    return { intentId, clientSecret: `${intentId}_secret_${base62(24)}` };
  }

  async cancelIntent(_intentId: string): Promise<void> {
    // the mock keeps no intents: nothing to refuse later
  }

  async refund(input: GatewayRefundInput): Promise<GatewayRefund> {
    // The id follows from the key, so asking again with one key answers the same refund, as a real
    // gateway's idempotency does; the mock keeps no state.
    const digest = createHmac('sha256', 'mock-refund').update(input.idempotencyKey).digest('hex');
    return { refundId: `re_mock_${digest.slice(0, 24)}`, status: 'succeeded' };
  }

  newChargeId(): string {
    return `ch_mock_${base62(24)}`;
  }

  verifyWebhook(rawBody: string, header: string | undefined, nowMs: number): void {
    if (!this.#webhookSecret) return; // development: unsigned webhooks accepted (warned at start)
    if (!header) throw new WebhookSignatureError('Missing Gateway-Signature header.');
    const parsed = parseSignature(header);
    if (!parsed) throw new WebhookSignatureError('Malformed Gateway-Signature header.');
    if (Math.abs(nowMs / 1000 - parsed.t) > SIGNATURE_TOLERANCE_SECONDS) {
      throw new WebhookSignatureError('Gateway-Signature timestamp is outside the tolerance.');
    }
    const expected = Buffer.from(signWebhook(this.#webhookSecret, rawBody, parsed.t).split('v1=')[1], 'hex');
    const valid = parsed.v1.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
    if (!valid) throw new WebhookSignatureError('Gateway-Signature does not match the body.');
  }
}
