import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { integrityProblems } from './integrity.ts';
import { databaseOfFile, distinctWindow, makeFixture, PASSWORD, startServer } from './server-process.ts';

// SIGTERM under load: every request sent before the signal gets its answer (no reset), acknowledged
// writes are kept, and the process exits 0.

const REQUESTS = 200;

const database = databaseOfFile();

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

/** Sends one request on its own connection; `sent` resolves once the whole request is written. */
function send(url: string, method: string, token: string | undefined, body?: unknown) {
  let markSent: () => void = () => {};
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  const answered = new Promise<Outcome>((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: {
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
        res.on('error', (error) => resolve({ error: String(error) }));
      },
    );
    req.on('error', (error) => {
      markSent();
      resolve({ error: (error as NodeJS.ErrnoException).code ?? String(error) });
    });
    req.on('finish', markSent);
    req.end(payload);
  });
  return { sent, answered };
}

describe('graceful shutdown', () => {
  it('answers every request sent before SIGTERM, keeps their writes and exits 0', async () => {
    const server = await startServer(database().url, { LOG_LEVEL: 'info' });
    const fixture = await makeFixture(server.url);
    const windows = new Map<number, { starts_at: string; ends_at: string }>();
    // bookings, detail views (click writes) and logins (an argon2 verification each, ~30 ms of work on
    // the thread pool: the server is still busy with them when the signal comes)
    const calls = Array.from({ length: REQUESTS }, (_, i) => {
      if (i % 5 === 4)
        return send(`${server.url}/api/v1/accounts/token/`, 'POST', undefined, {
          email: fixture.customerEmail,
          password: PASSWORD,
        });
      if (i % 2 === 0) {
        const window = distinctWindow();
        const call = send(`${server.url}/api/v1/booking/bookings/request/`, 'POST', fixture.customerToken, {
          equipment_item_id: fixture.listingId,
          ...window,
        });
        return { ...call, window };
      }
      return send(`${server.url}/api/v1/equipment/items/${fixture.publicId}/`, 'GET', undefined);
    });
    await Promise.all(calls.map((c) => c.sent));
    server.child.kill('SIGTERM');
    const outcomes = await Promise.all(calls.map((c) => c.answered));
    const exit = await server.exited;

    const failed = outcomes.filter((o) => o.error || (o.status !== 200 && o.status !== 201));
    expect(failed).toEqual([]);
    expect(exit).toEqual({ code: 0, signal: null });
    const logs = server.output().stdout;
    expect(logs).toContain('shutting down: finishing in-flight requests');
    // requests were still being served after the signal arrived
    const lines = logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string });
    const signalAt = lines.findIndex((l) => l.msg?.startsWith('shutting down'));
    const answeredAfter = lines.slice(signalAt).filter((l) => l.msg === 'request completed').length;
    expect(signalAt).toBeGreaterThan(0);
    expect(answeredAfter).toBeGreaterThan(0);

    for (const [i, call] of calls.entries())
      if ('window' in call && call.window) windows.set(JSON.parse(outcomes[i].body ?? '{}').id, call.window);
    const handle = database().open();
    try {
      const rows = await handle.db.selectFrom('bookings').select(['id', 'starts_at']).execute();
      const stored = new Map(rows.map((r) => [r.id, r.starts_at]));
      for (const [id, window] of windows) expect(stored.get(id)).toBe(Date.parse(window.starts_at));
      expect(rows.length).toBe(windows.size);
      expect(windows.size).toBe(80);
      expect(await integrityProblems(handle.db, database().dialect)).toEqual([]);
    } finally {
      await handle.close();
    }
    console.log(
      `shutdown (${database().dialect}): ${REQUESTS} requests sent before SIGTERM, all answered ` +
        `(${answeredAfter} after the signal), exit 0`,
    );
  }, 60_000);

  it('says not ready while it drains, still serves, then exits 0', async () => {
    const server = await startServer(database().url, { SHUTDOWN_DRAIN_MS: '1500' });
    const fixture = await makeFixture(server.url);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ detail: 'Shutting down.', code: 'service_unavailable' });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const booked = await fetch(`${server.url}/api/v1/booking/bookings/request/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.customerToken}` },
      body: JSON.stringify({ equipment_item_id: fixture.listingId, ...distinctWindow() }),
    });
    expect(booked.status).toBe(201);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(1_400);
  }, 30_000);
});
