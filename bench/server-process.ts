import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { BENCH_PASSWORD } from '../src/tools/seed-bench.ts';

// What the bench (run.ts) and the heap soak (heap-soak.ts) both need of the server they start and load.

/** A free loopback port for the server. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Where the server writes its mail under load (no SMTP_URL: development mail, one .eml file per message);
 * the bench removes it afterwards.
 */
export const BENCH_MAIL_DIR = join(tmpdir(), 'waterbook-bench-mail');

/**
 * The server's environment under load: production, quiet logs, and a login limit no load reaches. With
 * `delivery`, the outbox worker delivers as `npm start`'s does (its default poll, mail written as files
 * under `mailDir`); without, delivery is off.
 */
export function serverEnv(
  port: number,
  databaseUrl: string,
  { delivery = false, mailDir = BENCH_MAIL_DIR }: { delivery?: boolean; mailDir?: string } = {},
): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef',
    PAYMENT_WEBHOOK_SECRET: 'bench-webhook-secret-0123456789',
    ACCESS_TOKEN_TTL: '3600',
    RATE_LIMIT_LOGIN: '1000000',
    MAIL_DIR: mailDir,
    // Delivery off by default: at the bench's rates every booking request queues two mails, and a worker
    // delivering that backlog would be charged to the scenarios and ceilings after it. The requests still
    // write their events (the outbox write in their transaction is measured); scenario e2 runs a server of
    // its own with delivery on, and npm run bench:outbox measures delivery alone.
    ...(delivery ? {} : { NOTIFICATION_POLL_INTERVAL_MS: '0' }),
  };
}

/** An access token for one of the seeded bench accounts. */
export async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/accounts/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

/** A memory field of a process from /proc, in kB; null when the process is gone. */
export function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * CPU time a process has used so far, all its threads, in ms (utime + stime of /proc/<pid>/stat, in the
 * kernel's clock ticks of 10 ms); null when the process is gone.
 */
export function procCpuMs(pid: number): number | null {
  try {
    // the fields after the command name, which is in parentheses and may hold spaces
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export const iso = (ms: number) => new Date(ms).toISOString();

/** A JSON request body, with the caller's access token when given. */
export const jsonBody = (body: unknown, token?: string): Pick<AutocannonRequest, 'headers' | 'body'> => ({
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

/** The first whole hour after every existing booking, and at least 180 days out: the loads book from it. */
function firstFreeHour(latestBookingEnd: number): number {
  return Math.max(
    Math.ceil(latestBookingEnd / HOUR) * HOUR + HOUR,
    Math.floor(Date.now() / DAY) * DAY + 180 * DAY,
  );
}

/**
 * The n-th booking request of a load: `window.length` (default an hour) on item n % items, the item's
 * requests `window.apart` apart (default an hour) after every existing booking (and at least 180 days
 * out), so no two requests of a run conflict; the customers take turns.
 */
export function bookingRequests(
  items: readonly { id: number }[],
  customerTokens: readonly string[],
  latestBookingEnd: number,
  window = { apart: HOUR, length: HOUR },
): (n: number) => AutocannonRequest {
  const base = firstFreeHour(latestBookingEnd);
  return (n) => {
    const starts = base + Math.floor(n / items.length) * window.apart;
    return {
      method: 'POST',
      path: '/api/v1/booking/bookings/request/',
      ...jsonBody(
        {
          equipment_item_id: items[n % items.length].id,
          starts_at: iso(starts),
          ends_at: iso(starts + window.length),
          customer_notes: '',
        },
        customerTokens[n % customerTokens.length],
      ),
    };
  };
}

/**
 * The n-th request of the unit-aware load: a few multi-unit items under contention. Request n asks item
 * n % items for 1 or 2 units over two hours from hour n / (2 × items) after every existing booking: each
 * item is asked for 3 units starting each hour, and each hour's windows overlap the previous hour's, so 6
 * units are wanted where it has fewer (seed-bench: 5). Some requests get through, the others are 409.
 */
export function unitBookingRequests(
  items: readonly { id: number }[],
  customerTokens: readonly string[],
  latestBookingEnd: number,
): (n: number) => AutocannonRequest {
  const base = firstFreeHour(latestBookingEnd);
  return (n) => {
    const round = Math.floor(n / items.length);
    const starts = base + Math.floor(round / 2) * HOUR;
    return {
      method: 'POST',
      path: '/api/v1/booking/bookings/request/',
      ...jsonBody(
        {
          equipment_item_id: items[n % items.length].id,
          starts_at: iso(starts),
          ends_at: iso(starts + 2 * HOUR),
          quantity: 1 + (round % 2),
        },
        customerTokens[n % customerTokens.length],
      ),
    };
  };
}

/**
 * The n-th request of the rental load (decisions §20): 90 minutes (priced by the items' 2-hour rate) on
 * item n % items, each item's requests `bufferMinutes` + 2 hours apart from the first free hour on, so the
 * items' turnaround never makes two requests of a run conflict and each is accepted.
 */
export const rentalBookingRequests = (
  items: readonly { id: number }[],
  bufferMinutes: number,
  customerTokens: readonly string[],
  latestBookingEnd: number,
) =>
  bookingRequests(items, customerTokens, latestBookingEnd, {
    apart: 2 * HOUR + bufferMinutes * 60_000,
    length: 90 * 60_000,
  });

/**
 * The n-th booking request of the departures load (decisions §19): tour n % tours, at the next of its
 * departures (`times` each day, UTC) from the first free day on, one participant; a tour's seats are
 * enough for every request of a run, so each is accepted.
 */
/**
 * The n-th departure of the departure loads: tour n % tours, each of its departures (the schedule's `times`
 * every day, in UTC: the bench vendor's zone) once, from the first day after every existing booking.
 */
function nthDeparture(
  tours: readonly { id: number }[],
  times: readonly string[],
  latestBookingEnd: number,
): (n: number) => number {
  const firstDay = Math.ceil(firstFreeHour(latestBookingEnd) / DAY) * DAY;
  const offsets = times.map((t) => Number(t.slice(0, 2)) * HOUR + Number(t.slice(3)) * 60_000);
  return (n) => {
    const departure = Math.floor(n / tours.length);
    return firstDay + Math.floor(departure / offsets.length) * DAY + offsets[departure % offsets.length];
  };
}

export function departureBookingRequests(
  tours: readonly { id: number }[],
  times: readonly string[],
  customerTokens: readonly string[],
  latestBookingEnd: number,
  /** what the body adds or replaces (priced tours: participants by category, extras, a promo code) */
  choices: Record<string, unknown> = {},
  path = '/api/v1/booking/bookings/request/',
): (n: number) => AutocannonRequest {
  const startOf = nthDeparture(tours, times, latestBookingEnd);
  return (n) => ({
    method: 'POST',
    path,
    ...jsonBody(
      {
        adventure_offering_id: tours[n % tours.length].id,
        starts_at: iso(startOf(n)),
        participants_count: 1,
        ...choices,
      },
      customerTokens[n % customerTokens.length],
    ),
  });
}

/**
 * The n-th reserve of the OCTO load (decisions §24): a reseller holds one seat of the departures the
 * departure load books (`product@local start`, the bench vendor's zone being UTC), with a uuid of its own.
 */
export function octoReserveRequests(
  tours: readonly { id: number; publicId: string }[],
  times: readonly string[],
  channelKey: string,
  latestBookingEnd: number,
): (n: number) => AutocannonRequest {
  const startOf = nthDeparture(tours, times, latestBookingEnd);
  return (n) => {
    const productId = tours[n % tours.length].publicId;
    return {
      method: 'POST',
      path: '/octo/v1/bookings',
      ...jsonBody(
        {
          uuid: randomUUID(),
          productId,
          optionId: 'DEFAULT',
          availabilityId: `${productId}@${iso(startOf(n)).slice(0, 19)}+00:00`,
          unitItems: [{ unitId: 'person' }],
        },
        channelKey,
      ),
    };
  };
}
