import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/lib/datetime.ts';
import { issuePasswordResetToken } from '../../../src/modules/accounts/index.ts';
import { PASSWORD_RESET_EVENT } from '../../../src/outbox/events.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { PASSWORD, registerCustomer } from '../../helpers/factories.ts';
import { expectThrottled, sendInTurn } from '../../helpers/rate-limits.ts';

// Password reset by mail (decisions §15): the request only writes an outbox event, so its answer and its
// work are the same for every address; the outbox worker issues the token (issuePasswordResetToken) and the
// confirm uses it once.

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Harbour-Lights-77';

const requestReset = (email: string) =>
  api({ method: 'POST', url: '/api/v1/accounts/password/reset/', payload: { email } });
const confirm = (token: string, newPassword = NEW_PASSWORD) =>
  api({
    method: 'POST',
    url: '/api/v1/accounts/password/reset/confirm/',
    payload: { token, new_password: newPassword },
  });
const login = (email: string, password: string) =>
  api({ method: 'POST', url: '/api/v1/accounts/token/', payload: { email, password } });
const refreshWith = (refresh: string) =>
  api({ method: 'POST', url: '/api/v1/accounts/token/refresh/', payload: { refresh } });

const resetEvents = () =>
  t.db
    .selectFrom('notification_events')
    .selectAll()
    .where('type', '=', PASSWORD_RESET_EVENT)
    .orderBy('id')
    .execute();

const issue = async (email: string) => {
  const issued = await issuePasswordResetToken(t.db, email, t.clock.now().getTime());
  if (!issued) throw new Error(`no account for ${email}`);
  return issued;
};

const TOKEN_REFUSED = {
  detail: 'Invalid input.',
  code: 'invalid',
  errors: { token: ['This reset link is not valid: it was already used, has expired or is unknown.'] },
};

describe('POST /accounts/password/reset/', () => {
  it('answers known and unknown addresses alike, each with exactly one outbox event', async () => {
    const customer = await registerCustomer(t.app);
    const before = (await resetEvents()).length;

    const known = await requestReset(customer.email.toUpperCase());
    const afterKnown = await resetEvents();
    const unknown = await requestReset('nobody-here@example.com');
    const afterUnknown = await resetEvents();

    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual({ detail: 'If an account exists for that address, we sent a link.' });
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);

    expect(afterKnown).toHaveLength(before + 1);
    expect(afterUnknown).toHaveLength(before + 2);
    const [knownEvent, unknownEvent] = afterUnknown.slice(before);
    for (const [event, email] of [
      [knownEvent, customer.email],
      [unknownEvent, 'nobody-here@example.com'],
    ] as const) {
      expect(event).toMatchObject({
        vendor_id: null,
        booking_id: null,
        created_at: t.clock.now().getTime(),
        dispatched_at: null,
      });
      const body = JSON.parse(event.payload);
      expect(body).toEqual({
        id: event.public_id,
        type: PASSWORD_RESET_EVENT,
        created_at: t.clock.now().toISOString(),
        data: { email },
      });
    }
    // nothing else was written: no token exists before the worker issues one
    expect(
      await t.db
        .selectFrom('password_reset_tokens')
        .select('id')
        .where('user_id', '=', customer.id)
        .execute(),
    ).toEqual([]);
  });

  it('refuses an address that is not an email with a 400 on email and writes nothing', async () => {
    const before = (await resetEvents()).length;
    const res = await requestReset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['email']);
    expect(await resetEvents()).toHaveLength(before);
  });

  it('is rate limited like registration, with 429 in the decided body', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_REGISTER: '2' } });
    try {
      const replies = await sendInTurn(3, (i) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/password/reset/',
          payload: { email: `someone${i}@example.com` },
        }),
      );
      expect(replies.map((r) => r.statusCode)).toEqual([202, 202, 429]);
      expectThrottled(replies[2]);
    } finally {
      await limited.close();
    }
  });
});

describe('issuePasswordResetToken', () => {
  it('stores only the hash of a random token valid one hour, for the account of the email', async () => {
    const customer = await registerCustomer(t.app);
    const issued = await issue(` ${customer.email.toUpperCase()}`);
    expect(issued).toEqual({ token: expect.any(String), userId: customer.id, email: customer.email });
    expect(Buffer.from(issued.token, 'base64url')).toHaveLength(32);
    const rows = await t.db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('user_id', '=', customer.id)
      .execute();
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        user_id: customer.id,
        token_hash: createHash('sha256').update(issued.token).digest('hex'),
        created_at: t.clock.now().getTime(),
        expires_at: t.clock.now().getTime() + HOUR_MS,
        used_at: null,
      },
    ]);
    expect((await issue(customer.email)).token).not.toBe(issued.token);
  });

  it('issues nothing for an address without an account', async () => {
    expect(await issuePasswordResetToken(t.db, 'nobody-here@example.com', t.clock.now().getTime())).toBe(
      undefined,
    );
  });
});

describe('POST /accounts/password/reset/confirm/', () => {
  it('sets the new password once and ends every session; the second use is a 400', async () => {
    const customer = await registerCustomer(t.app);
    const { token } = await issue(customer.email);
    const res = await confirm(token);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    expect((await login(customer.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(customer.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await refreshWith(customer.refresh)).statusCode).toBe(401);
    const row = await t.db
      .selectFrom('password_reset_tokens')
      .select('used_at')
      .where('user_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBe(t.clock.now().getTime());

    const again = await confirm(token, 'Another-Password-9');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(TOKEN_REFUSED);
    expect((await login(customer.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('ends the other unused reset tokens of the user', async () => {
    const customer = await registerCustomer(t.app);
    const first = await issue(customer.email);
    const second = await issue(customer.email);
    expect((await confirm(second.token)).statusCode).toBe(204);
    const res = await confirm(first.token, 'Another-Password-9');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(TOKEN_REFUSED);
    expect((await login(customer.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a token after its hour', async () => {
    const customer = await registerCustomer(t.app);
    const { token } = await issue(customer.email);
    t.clock.advance(HOUR_MS);
    const res = await confirm(token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(TOKEN_REFUSED);
    expect((await login(customer.email, PASSWORD)).statusCode).toBe(200);
  });

  it('accepts a token just before its hour is over', async () => {
    const customer = await registerCustomer(t.app);
    const { token } = await issue(customer.email);
    t.clock.advance(HOUR_MS - 1);
    expect((await confirm(token)).statusCode).toBe(204);
  });

  it('refuses an unknown token', async () => {
    const res = await confirm('bm90LWEtcmVhbC10b2tlbi1hdC1hbGwtbm90LWF0LWFsbA');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(TOKEN_REFUSED);
  });

  it("checks the new password by registration's rules and keeps the token for another try", async () => {
    const customer = await registerCustomer(t.app);
    const { token } = await issue(customer.email);
    const weak = await confirm(token, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual({ new_password: ['Password must be at least 8 characters long.'] });
    expect((await confirm(token)).statusCode).toBe(204);
  });

  it('a password change ends the reset tokens issued before it', async () => {
    const customer = await registerCustomer(t.app);
    const { token } = await issue(customer.email);
    const changed = await api({
      method: 'POST',
      url: '/api/v1/accounts/password/change/',
      token: customer.token,
      payload: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(204);
    expect((await confirm(token, 'Another-Password-9')).json()).toEqual(TOKEN_REFUSED);
  });

  it('is rate limited like login, with 429 in the decided body', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_LOGIN: '2' } });
    try {
      const replies = await sendInTurn(3, (i) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/password/reset/confirm/',
          payload: { token: `guess-${i}`, new_password: NEW_PASSWORD },
        }),
      );
      expect(replies.map((r) => r.statusCode)).toEqual([400, 400, 429]);
      expectThrottled(replies[2]);
    } finally {
      await limited.close();
    }
  });
});
