import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { PASSWORD } from '../../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('error contract', () => {
  it('answers unknown routes with the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Malformed JSON body.', code: 'invalid' });
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        email: 'big@example.com',
        password: PASSWORD,
        first_name: 'x'.repeat(1024 * 1024),
      }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('treats a JSON body that is not an object as invalid input', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid');
    expect(res.json().errors).toBeDefined();
  });

  it('accepts paths with and without the trailing slash', async () => {
    for (const url of ['/api/v1/accounts/me', '/api/v1/accounts/me/']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('operations', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('serves an OpenAPI document with unique operation ids, security and error responses', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(
      doc.paths as Record<string, Record<string, Record<string, unknown>>>,
    ).flatMap((p) => Object.values(p));
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const me = doc.paths['/api/v1/accounts/me/'].get;
    expect(me.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(me.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    const login = doc.paths['/api/v1/accounts/token/'].post;
    expect(login.security).toEqual([]);
    expect(Object.keys(login.responses)).toContain('429');
  });

  it('serves the interactive docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('exports Prometheus metrics: requests by route and status, process figures, pool on PostgreSQL', async () => {
    const countOf = async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const match =
        /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/accounts\/me\/",status_code="401"\} (\d+)/.exec(
          text,
        );
      return { text, count: match ? Number(match[1]) : 0 };
    };
    const before = await countOf();
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/v1/accounts/me/' });
    const after = await countOf();
    expect(after.count - before.count).toBe(3);
    const seconds =
      /http_request_duration_seconds_sum\{method="GET",route="\/api\/v1\/accounts\/me\/",status_code="401"\} ([\d.e-]+)/.exec(
        after.text,
      );
    expect(Number(seconds?.[1])).toBeGreaterThan(0);
    // an unknown path is no route of its own
    await t.app.inject({ method: 'GET', url: '/no/such/path' });
    expect((await countOf()).text).not.toContain('route="/no/such/path"');
    expect(after.text).toContain('process_resident_memory_bytes');
    if (t.dialect === 'postgres') expect(after.text).toMatch(/db_pool_connections \d+/);
  });

  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id'] ?? res.headers['request-id']).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('limits registration per client address with 429 and Retry-After', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_REGISTER: '2' } });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof limited.app.inject>> | undefined;
      for (let i = 0; i < 3; i++) {
        last = await limited.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/register/customer/',
          payload: { email: `rl${i}@example.com`, password: PASSWORD },
        });
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([201, 201, 429]);
      expect(last!.json().code).toBe('throttled');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('limits login attempts', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_LOGIN: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/token/',
          payload: { email: 'x@example.com', password: 'whatever1' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
