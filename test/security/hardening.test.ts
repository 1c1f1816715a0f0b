import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { PASSWORD, registerCustomer } from '../helpers/factories.ts';

// Transport hardening: security headers, CORS from CORS_ORIGINS, client addresses behind a proxy
// (TRUST_PROXY) as the rate limits see them, malformed paths and hostile bodies, login timing.

async function withApp<T>(env: Record<string, string>, fn: (t: TestApp) => Promise<T>): Promise<T> {
  const t = await buildTestApp({ env });
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('are on every API answer: success, client error and not found', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/v1/categories/' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/accounts/me/' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing/' }),
      await t.app.inject({ method: 'POST', url: '/api/v1/accounts/token/', payload: { email: 1 } }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 400]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'x-dns-prefetch-control': 'off',
        'x-permitted-cross-domain-policies': 'none',
      });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });
});

describe('CORS', () => {
  const preflight = (origin: string) => ({
    method: 'OPTIONS' as const,
    url: '/api/v1/booking/bookings/request/',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

  it('echoes an origin listed in CORS_ORIGINS, on answers and errors, and no other', async () => {
    await withApp({ CORS_ORIGINS: 'https://shop.example,https://admin.example' }, async (t) => {
      const allowed = await t.app.inject({
        method: 'GET',
        url: '/api/v1/categories/',
        headers: { origin: 'https://shop.example' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
      expect(String(allowed.headers.vary)).toContain('Origin');
      // a browser may read the error body too
      const denied = await t.app.inject({
        method: 'GET',
        url: '/api/v1/accounts/me/',
        headers: { origin: 'https://admin.example' },
      });
      expect(denied.statusCode).toBe(401);
      expect(denied.headers['access-control-allow-origin']).toBe('https://admin.example');
      // a browser client may read whether an answer was replayed (idempotency keys) and a throttle's wait
      expect(denied.headers['access-control-expose-headers']).toBe('Idempotent-Replayed, Retry-After');

      const pre = await t.app.inject(preflight('https://shop.example'));
      expect(pre.statusCode).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('https://shop.example');
      expect(String(pre.headers['access-control-allow-methods'])).toContain('POST');
      expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');

      for (const origin of ['https://evil.example', 'https://shop.example.evil.example', 'null']) {
        const res = await t.app.inject({ method: 'GET', url: '/api/v1/categories/', headers: { origin } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(
          (await t.app.inject(preflight(origin))).headers['access-control-allow-origin'],
        ).toBeUndefined();
      }
    });
  });

  it('sends no CORS headers when CORS_ORIGINS is empty, and any origin with *', async () => {
    await withApp({}, async (t) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/categories/',
        headers: { origin: 'https://shop.example' },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(
        (await t.app.inject(preflight('https://shop.example'))).headers['access-control-allow-origin'],
      ).toBeUndefined();
    });
    await withApp({ CORS_ORIGINS: '*' }, async (t) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/categories/',
        headers: { origin: 'https://anyone.example' },
      });
      expect(res.headers['access-control-allow-origin']).toBe('https://anyone.example');
    });
  });
});

describe('client addresses behind a proxy (rate limits)', () => {
  /** Login attempts with the given X-Forwarded-For values; the statuses in order. */
  async function attempts(env: Record<string, string>, forwarded: string[]): Promise<number[]> {
    return withApp({ RATE_LIMIT_LOGIN: '2', ...env }, async (t) => {
      const statuses: number[] = [];
      for (const xff of forwarded) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/token/',
          headers: { 'x-forwarded-for': xff },
          payload: { email: 'nobody@example.com', password: 'wrong-password' },
        });
        statuses.push(res.statusCode);
      }
      return statuses;
    });
  }

  it('keys on the X-Forwarded-For client with TRUST_PROXY=true', async () => {
    expect(
      await attempts({ TRUST_PROXY: 'true' }, ['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2']),
    ).toEqual([401, 401, 429, 401]);
  });

  it('trusts only the configured hops, so a client cannot pick its own address', async () => {
    // one trusted hop: the client is the address that proxy saw, whatever the client wrote before it
    expect(
      await attempts({ TRUST_PROXY: '1' }, [
        '1.1.1.1, 203.0.113.9',
        '2.2.2.2, 203.0.113.9',
        '3.3.3.3, 203.0.113.9',
      ]),
    ).toEqual([401, 401, 429]);
    // a trusted proxy address (inject connects from 127.0.0.1)
    expect(
      await attempts({ TRUST_PROXY: '127.0.0.1' }, ['203.0.113.1', '203.0.113.1', '203.0.113.2']),
    ).toEqual([401, 401, 401]);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    expect(await attempts({}, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([401, 401, 429]);
  });
});

describe('hostile requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers an over-long or malformed path with the error body, not the framework’s', async () => {
    for (const url of [
      `/api/v1/booking/bookings/${'9'.repeat(150)}/`,
      `/api/v1/equipment/storefront/${'x'.repeat(101)}/`,
      '/api/v1/booking/bookings/%ZZ/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'detail']);
      expect(res.json().code).toBe('invalid');
    }
  });

  it('refuses NUL characters in declared strings (PostgreSQL cannot store them) and names the field', async () => {
    const body = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      payload: { email: 'nul@example.com', password: PASSWORD, first_name: 'A\u0000na' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().errors).toEqual({ first_name: ['must not contain NUL characters'] });
    const query = await t.app.inject({ method: 'GET', url: '/api/v1/equipment/items/?location=a%00b' });
    expect(query.statusCode).toBe(400);
    expect(query.json().errors).toEqual({ location: ['must not contain NUL characters'] });
    const path = await t.app.inject({ method: 'GET', url: '/api/v1/equipment/storefront/a%00b/' });
    expect(path.statusCode).toBe(400);
    expect(path.json().errors).toEqual({ slug: ['must not contain NUL characters'] });
    expect(
      (await t.db.selectFrom('users').select('id').where('email', '=', 'nul@example.com').execute()).length,
    ).toBe(0);
  });

  it('refuses prototype-poisoning JSON and survives deep nesting and huge bodies', async () => {
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"isAdmin":true},"email":"a@b.co","password":"x"}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const deep = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    });
    expect(deep.statusCode).toBe(400);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ gateway_event_id: 'e', payload: { blob: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('payload_too_large');
  });
});

describe('login timing', () => {
  it('takes as long for an unknown email as for a wrong password (no account enumeration)', async () => {
    await withApp({}, async (t) => {
      const customer = await registerCustomer(t.app);
      const time = async (email: string) => {
        const started = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/token/',
          payload: { email, password: 'Wrong-Password-1' },
        });
        expect(res.statusCode).toBe(401);
        return performance.now() - started;
      };
      await time('warm-up@example.com');
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 16; i++) {
        known.push(await time(customer.email));
        unknown.push(await time(`nobody-${i}@example.com`));
      }
      // Both pay for one argon2id verification; an early exit would be an order of magnitude faster.
      // Other processes on the machine (other test files, at the same time) only ever add time to a
      // sample, in bursts that can cover several samples in a row: the fastest of many samples of each
      // kind is its own cost.
      expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.3);
      expect(Math.min(...unknown)).toBeLessThan(Math.min(...known) * 3);
    });
  });
});
