import { describe, expect, it } from 'vitest';
import { databaseOfFile, PASSWORD, startServer } from '../reliability/server-process.ts';

// The most verbose logs of a real server never hold a credential: not the bearer token, cookies, the
// webhook signature, passwords or tokens in bodies, nor the tokens the server hands out.

const database = databaseOfFile();

/** The urls of the access log's lines, in order. */
const accessUrls = (logs: string) =>
  logs
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg?: string; req?: { url: string } })
    .filter((line) => line.msg === 'request completed')
    .map((line) => line.req?.url ?? '');

describe('log redaction', () => {
  it('keeps credentials out of trace-level logs', async () => {
    const server = await startServer(database().url, { LOG_LEVEL: 'trace' });
    const secrets = {
      password: 'Secret-Password-4711',
      bearer: 'bearer-secret-token-value',
      cookie: 'session=cookie-secret-value',
      signature: 't=1,v1=signature-secret-value',
      newPassword: 'Second-Secret-Password-0815',
      resetToken: 'reset-token-secret-value',
    };
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const registered = await post('/api/v1/accounts/register/customer/', {
      email: 'logged@example.com',
      password: secrets.password,
    });
    expect(registered.status).toBe(201);
    const login = await post('/api/v1/accounts/token/', {
      email: 'logged@example.com',
      password: secrets.password,
    });
    const tokens = (await login.json()) as { access: string; refresh: string };
    expect(login.status).toBe(200);
    const refreshed = await post('/api/v1/accounts/token/refresh/', { refresh: tokens.refresh });
    expect(refreshed.status).toBe(200);
    const me = await fetch(`${server.url}/api/v1/accounts/me/`, {
      headers: { authorization: `Bearer ${tokens.access}`, cookie: secrets.cookie },
    });
    expect(me.status).toBe(200);
    const bad = await fetch(`${server.url}/api/v1/accounts/me/`, {
      headers: { authorization: `Bearer ${secrets.bearer}` },
    });
    expect(bad.status).toBe(401);
    const changed = await post(
      '/api/v1/accounts/password/change/',
      { current_password: secrets.password, new_password: secrets.newPassword },
      { authorization: `Bearer ${tokens.access}` },
    );
    expect(changed.status).toBe(204);
    expect((await post('/api/v1/accounts/password/reset/', { email: 'logged@example.com' })).status).toBe(
      202,
    );
    const confirmed = await post('/api/v1/accounts/password/reset/confirm/', {
      token: secrets.resetToken,
      new_password: secrets.newPassword,
    });
    expect(confirmed.status).toBe(400);
    await post(
      '/api/v1/payment/webhooks/gateway/',
      {
        gateway_event_id: 'evt_1',
        event_type: 'payment_intent.succeeded',
        gateway_payment_intent_id: 'pi_x',
      },
      { 'gateway-signature': secrets.signature },
    );
    // a route logged at warn (the metrics scrape) writes no access line
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const logs = server.output().stdout;
    // every request reached the access log (the server's own readiness polls too)
    expect(accessUrls(logs).filter((url) => url !== '/readyz')).toEqual([
      '/api/v1/accounts/register/customer/',
      '/api/v1/accounts/token/',
      '/api/v1/accounts/token/refresh/',
      '/api/v1/accounts/me/',
      '/api/v1/accounts/me/',
      '/api/v1/accounts/password/change/',
      '/api/v1/accounts/password/reset/',
      '/api/v1/accounts/password/reset/confirm/',
      '/api/v1/payment/webhooks/gateway/',
    ]);
    for (const secret of [
      ...Object.values(secrets),
      tokens.access,
      tokens.refresh,
      'cookie-secret',
      '$argon2',
    ])
      expect(logs).not.toContain(secret);
  }, 30_000);

  it("keeps a calendar feed's secret token out of trace-level logs, found or not", async () => {
    const server = await startServer(database().url, { LOG_LEVEL: 'trace' });
    const post = (path: string, body: unknown) =>
      fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, string>>);
    const email = 'feed-owner@example.com';
    await post('/api/v1/accounts/register/vendor/', { email, password: PASSWORD, business_name: 'Logged' });
    const { access } = await post('/api/v1/accounts/token/', { email, password: PASSWORD });
    const { url } = (await (
      await fetch(`${server.url}/api/v1/booking/vendor/calendar-feed/`, {
        headers: { authorization: `Bearer ${access}` },
      })
    ).json()) as { url: string };
    const token = /\/calendar\/([A-Za-z0-9_-]{43})\.ics$/.exec(url)?.[1] as string;
    expect(token).toBeDefined();
    const unknown = 'unknown-feed-token-secret-value';
    expect((await fetch(`${server.url}/calendar/${token}.ics`)).status).toBe(200);
    expect((await fetch(`${server.url}/calendar/${unknown}.ics`)).status).toBe(404);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const logs = server.output().stdout;
    expect(accessUrls(logs).filter((url) => url.startsWith('/calendar/'))).toEqual([
      '/calendar/[redacted].ics',
      '/calendar/[redacted].ics',
    ]);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(unknown);
  }, 30_000);
});
