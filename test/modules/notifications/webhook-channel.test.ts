import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import type { DeliveryAttempt, EndpointRow } from '../../../src/modules/notifications/channel.ts';
import { createWebhookChannel } from '../../../src/modules/notifications/webhook-channel.ts';
import { newWebhookSecret } from '../../../src/modules/notifications/webhook-signature.ts';
import { newEventId } from '../../../src/outbox/events.ts';
import { buildTestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { createEndpoint } from '../../helpers/notification-factories.ts';

// The webhook channel against a real HTTP receiver on 127.0.0.1; signatures are checked with the
// standardwebhooks package (the reference implementation), never with the project's own signing code.

const DAY = 24 * 3_600_000;

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A receiver whose answer each test sets; it keeps every request it got. */
class Receiver {
  readonly received: Received[] = [];
  handler: Handler = (_request, response) => response.writeHead(204).end();
  readonly server: Server;
  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks),
        });
        this.handler(request, response);
      });
    });
  }
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }
  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.listen());
afterAll(() => receiver.close());
afterEach(() => {
  receiver.received.length = 0;
  receiver.handler = (_request, response) => response.writeHead(204).end();
});

function endpointAt(url: string, overrides: Partial<EndpointRow> = {}): EndpointRow {
  return {
    id: 7,
    vendor_id: 1,
    url,
    description: '',
    event_types: '["*"]',
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    is_active: 1,
    created_at: 0,
    updated_at: 0,
    ...overrides,
  };
}

function attemptTo(endpoint: EndpointRow): DeliveryAttempt {
  const publicId = newEventId();
  // non-ASCII and escapes: the bytes on the wire must be these exactly
  const payload = JSON.stringify({
    id: publicId,
    type: 'booking.requested',
    created_at: '2026-07-01T09:00:00.000Z',
    data: { booking: { id: 1, customer_notes: 'Três caiaques — "duplos" ☀' }, payment: null, refund: null },
  });
  return {
    delivery: {
      id: 11,
      event_id: 3,
      channel: 'webhook',
      endpoint_id: endpoint.id,
      recipient: null,
      recipient_role: null,
      secret: null,
      status: 'pending',
      attempts: 1,
      last_status_code: null,
      last_error: null,
      next_attempt_at: null,
      created_at: 0,
      updated_at: 0,
    },
    event: { publicId, type: 'booking.requested', payload, createdAt: 0 },
    endpoint,
  };
}

const local = createWebhookChannel({ allowPrivate: true });

describe('the webhook channel', () => {
  it('POSTs the exact payload bytes with Standard Webhooks headers that the reference library verifies', async () => {
    const endpoint = endpointAt(receiver.url('/hook?source=waterbook'));
    const attempt = attemptTo(endpoint);
    const before = Math.floor(Date.now() / 1000);
    const outcome = await local.send(attempt);
    expect(outcome).toEqual({ delivered: true, statusCode: 204, error: null });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hook?source=waterbook');
    expect(got.body.equals(Buffer.from(attempt.event.payload, 'utf8'))).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(got.body.length));
    expect(got.headers['user-agent']).toMatch(/Waterbook/);
    expect(got.headers['webhook-id']).toBe(attempt.event.publicId);
    expect(Number(got.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(new Webhook(endpoint.secret).verify(got.body.toString('utf8'), headers)).toEqual(
      JSON.parse(attempt.event.payload),
    );
    // a wrong key, or a changed body, does not verify
    expect(() => new Webhook(newWebhookSecret()).verify(got.body.toString('utf8'), headers)).toThrow();
    expect(() =>
      new Webhook(endpoint.secret).verify(got.body.toString('utf8').replace('Três', 'Tres'), headers),
    ).toThrow();
  });

  it('signs with the old secret too while a rotation’s overlap lasts, then with the new one only', async () => {
    const clock = new ManualClock(new Date());
    const channel = createWebhookChannel({ allowPrivate: true, clock });
    const previous = newWebhookSecret();
    const endpoint = endpointAt(receiver.url(), {
      previous_secret: previous,
      previous_secret_expires_at: clock.now().getTime() + DAY,
    });
    expect((await channel.send(attemptTo(endpoint))).delivered).toBe(true);
    const [got] = receiver.received;
    const signatures = String(got.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    const headers = (signature: string) => ({
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': signature,
    });
    const body = got.body.toString('utf8');
    // each secret verifies on its own signature, and a receiver holding either accepts the whole header
    expect(() => new Webhook(endpoint.secret).verify(body, headers(signatures[0]))).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers(signatures[1]))).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers(signatures[0]))).toThrow();
    expect(() => new Webhook(previous).verify(body, headers(signatures.join(' ')))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(body, headers(signatures.join(' ')))).not.toThrow();

    // after the overlap: one signature, the old secret no longer verifies
    clock.set(new Date(clock.now().getTime() + DAY));
    receiver.received.length = 0;
    expect((await channel.send(attemptTo(endpoint))).delivered).toBe(true);
    expect(String(receiver.received[0].headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('reports a 500 as not delivered, "HTTP 500"', async () => {
    receiver.handler = (_request, response) => response.writeHead(500).end('boom');
    expect(await local.send(attemptTo(endpointAt(receiver.url())))).toEqual({
      delivered: false,
      statusCode: 500,
      error: 'HTTP 500',
    });
  });

  it('asks for the endpoint to be disabled on a 410', async () => {
    receiver.handler = (_request, response) => response.writeHead(410).end();
    const outcome = await local.send(attemptTo(endpointAt(receiver.url())));
    expect(outcome).toMatchObject({ delivered: false, statusCode: 410, disableEndpoint: true });
    expect(outcome.error).toMatch(/410/);
  });

  it('does not follow a redirect', async () => {
    receiver.handler = (request, response) => {
      if (request.url === '/hook') response.writeHead(302, { location: receiver.url('/elsewhere') }).end();
      else response.writeHead(200).end();
    };
    expect(await local.send(attemptTo(endpointAt(receiver.url('/hook'))))).toEqual({
      delivered: false,
      statusCode: 302,
      error: 'redirect not followed (HTTP 302)',
    });
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
  });

  it('gives up on a receiver that never answers, at the deadline', async () => {
    receiver.handler = () => {};
    const channel = createWebhookChannel({ allowPrivate: true, timeoutMs: 200 });
    const started = performance.now();
    expect(await channel.send(attemptTo(endpointAt(receiver.url())))).toEqual({
      delivered: false,
      statusCode: null,
      error: 'timeout after 0.2 s',
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads an endless answer body only up to the limit, then closes the connection', async () => {
    let closed = false;
    let written = 0;
    receiver.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        let more = true;
        while (more && !response.destroyed) {
          more = response.write(chunk);
          written += chunk.length;
        }
      };
      response.on('drain', pump);
      response.on('close', () => {
        closed = true;
      });
      pump();
    };
    const channel = createWebhookChannel({ allowPrivate: true, timeoutMs: 5000 });
    const started = performance.now();
    expect(await channel.send(attemptTo(endpointAt(receiver.url())))).toEqual({
      delivered: true,
      statusCode: 200,
      error: null,
    });
    expect(performance.now() - started).toBeLessThan(2000);
    await expect.poll(() => closed).toBe(true);
    // the receiver could write only what the sockets' buffers hold, not an endless stream
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('reports a refused connection', async () => {
    const spare = new Receiver();
    await spare.listen();
    const url = spare.url();
    await spare.close();
    expect(await local.send(attemptTo(endpointAt(url)))).toEqual({
      delivered: false,
      statusCode: null,
      error: 'connection refused',
    });
  });

  it('connects to the address its resolver answered, keeping the name in the Host header', async () => {
    const asked: string[] = [];
    const channel = createWebhookChannel({
      allowPrivate: true,
      resolve: async (hostname) => {
        asked.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const outcome = await channel.send(attemptTo(endpointAt(`http://receiver.test:${receiver.port}/hook`)));
    expect(outcome.delivered).toBe(true);
    expect(asked).toEqual(['receiver.test']);
    expect(receiver.received[0].headers.host).toBe(`receiver.test:${receiver.port}`);
  });

  it('reports a name that does not resolve', async () => {
    const channel = createWebhookChannel({
      allowPrivate: true,
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    expect(await channel.send(attemptTo(endpointAt('https://gone.example.com/hook')))).toEqual({
      delivered: false,
      statusCode: null,
      error: 'could not resolve gone.example.com (ENOTFOUND)',
    });
  });
});

describe('the SSRF guard at delivery time', () => {
  const guarded = (resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>) =>
    createWebhookChannel({ allowPrivate: false, resolve });

  it('refuses loopback, private, link-local, unspecified and IPv4-mapped targets without connecting', async () => {
    const port = receiver.port;
    const cases: [string, string][] = [
      [`http://127.0.0.1:${port}/hook`, 'refused: 127.0.0.1 is a loopback address'],
      ['http://10.0.0.1/hook', 'refused: 10.0.0.1 is a private address'],
      ['http://169.254.169.254/latest/meta-data/', 'refused: 169.254.169.254 is a link-local address'],
      [`http://[::1]:${port}/hook`, 'refused: ::1 is a loopback address'],
      [`http://0.0.0.0:${port}/hook`, 'refused: 0.0.0.0 is an unspecified address'],
      [`http://[::ffff:127.0.0.1]:${port}/hook`, 'refused: 127.0.0.1 is a loopback address'],
    ];
    for (const [url, error] of cases) {
      const outcome = await guarded().send(attemptTo(endpointAt(url)));
      expect(outcome, url).toEqual({ delivered: false, statusCode: null, error });
    }
    expect(receiver.received).toEqual([]);
  });

  it('refuses a name that resolves to a private address, even among public ones', async () => {
    for (const addresses of [
      [{ address: '127.0.0.1', family: 4 }],
      [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      [{ address: '::ffff:127.0.0.1', family: 6 }],
    ]) {
      const outcome = await guarded(async () => addresses).send(
        attemptTo(endpointAt(`http://hooks.example.com:${receiver.port}/hook`)),
      );
      expect(outcome).toEqual({
        delivered: false,
        statusCode: null,
        error: 'refused: 127.0.0.1 is a loopback address',
      });
    }
    expect(receiver.received).toEqual([]);
  });

  it('refuses at send time a name that resolved to a public address when the endpoint was saved (DNS rebinding)', async () => {
    let answer = '93.184.215.14';
    const resolveHost = async () => [{ address: answer, family: 4 }];
    const t = await buildTestApp({ resolveHost });
    try {
      const vendor = await registerVendor(t.app);
      const { id } = await createEndpoint(t.app, vendor, {
        url: `http://rebind.example.com:${receiver.port}/hook`,
      });
      // the name now points at the server's own network
      answer = '127.0.0.1';
      const endpoint = await t.db
        .selectFrom('notification_endpoints')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const outcome = await guarded(resolveHost).send(attemptTo(endpoint));
      expect(outcome).toEqual({
        delivered: false,
        statusCode: null,
        error: 'refused: 127.0.0.1 is a loopback address',
      });
      expect(receiver.received).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
