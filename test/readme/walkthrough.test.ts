import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnProgram } from '../helpers/run-node.ts';
import { freshDatabase, killServers, startServer, type TestDatabase } from '../reliability/server-process.ts';
import { walkthroughBlocks, walkthroughScript } from './walkthrough-blocks.ts';

// The README's front door, run as written: its walkthrough blocks in bash against a real server process
// on a fresh database (SQLite, or PostgreSQL under test:pg), pointed at it the way the README tells a user
// to (API_URL, and the server's DATABASE_URL and PAYMENT_WEBHOOK_SECRET for simulate-payment). A README
// command that stops working fails here, at the command. Needs bash and curl (.ci/run installs curl).

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function getJson(url: string, token: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, url).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe('the README walkthrough blocks', () => {
  it('are found in order, and a marker without its sh block is an error', () => {
    expect(walkthroughBlocks(README).map((block) => block.name)).toEqual([
      'booking',
      'departures',
      'idempotency',
    ]);
    expect(() => walkthroughBlocks('<!-- walkthrough: x -->\n```bash\necho\n```')).toThrow(/not followed/);
    expect(() => walkthroughBlocks('<!-- walkthrough: x -->\n```sh\necho')).toThrow(/never closed/);
  });
});

// The server's configuration: a new user's (nothing but the database and the port), and one that signs the
// payment webhooks, whose secret the README tells the user to give simulate-payment too.
const SETUPS: { setup: string; serverEnv: Record<string, string> }[] = [
  { setup: 'as a new user: only the database and the port chosen', serverEnv: {} },
  {
    setup: 'with signed payment webhooks',
    serverEnv: { PAYMENT_WEBHOOK_SECRET: 'walkthrough-webhook-secret' },
  },
];

describe.each(SETUPS)('the README walkthrough, $setup', ({ serverEnv }) => {
  const databases: TestDatabase[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'readme-walkthrough-'));
  afterAll(async () => {
    await killServers();
    await Promise.all(databases.map((database) => database.drop()));
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('books, pays and confirms a kayak, attributes it to the campaign, books a tour departure, and replays a retried request', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const server = await startServer(database.url, serverEnv);
    const stateFile = join(stateDir, 'state.json');
    const bash = spawnProgram(
      'bash',
      ['-c', walkthroughScript(walkthroughBlocks(README))],
      {
        HOME: process.env.HOME ?? stateDir,
        API_URL: server.url,
        DATABASE_URL: database.url,
        ...serverEnv,
        WALKTHROUGH_STATE: stateFile,
      },
      ROOT,
    );
    const run = await bash.closed;
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
    // what the README's comments say the user sees
    expect(run.stdout.split('\n')).toContain('confirmed');

    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, string>;
    const api = `${server.url}/api/v1`;
    const booking = await getJson(`${api}/booking/bookings/${state.BOOKING}/`, state.CUSTOMER);
    expect(booking).toMatchObject({ status: 'confirmed', total_price: '135.00', currency: 'eur' });

    const summary = await getJson(
      `${api}/marketing/vendor/summary/?from=2020-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
      state.VENDOR,
    );
    expect(summary.campaigns).toEqual([
      {
        utm_source: 'newsletter',
        utm_medium: '',
        utm_campaign: 'summer',
        clicks: 1,
        bookings: 1,
        conversion_rate: 1,
        bookings_confirmed: 1,
        revenue: '135.00',
      },
    ]);

    // the scheduled tour: two seats on the Saturday 18:30 departure (Lisbon, summer time: 17:30Z)
    const tourBooking = (list: Record<string, unknown>) =>
      (list.results as Record<string, unknown>[]).filter(
        (b) => b.adventure_offering_id === Number(state.TOUR),
      );
    const mine = await getJson(`${api}/booking/bookings/?page_size=100`, state.CUSTOMER);
    expect(tourBooking(mine)).toEqual([
      expect.objectContaining({
        status: 'requested',
        starts_at: '2030-07-06T17:30:00.000Z',
        ends_at: '2030-07-06T19:30:00.000Z',
        participants_count: 2,
        total_price: '70.00',
      }),
    ]);
    const day = await getJson(
      `${api}/adventrues/offerings/sunset-tour/departures/?from=2030-07-06T00:00:00Z&to=2030-07-07T00:00:00Z`,
      state.CUSTOMER,
    );
    expect(day.departures).toEqual([
      expect.objectContaining({ local_time: '09:00', starts_at: '2030-07-06T08:00:00.000Z', remaining: 12 }),
      expect.objectContaining({ local_time: '18:30', starts_at: '2030-07-06T17:30:00.000Z', remaining: 10 }),
    ]);
    expect(run.stdout.split('\n')).toEqual(expect.arrayContaining(['12', '70.00']));

    // the idempotency example sent its request twice with one key: one booking for that window
    const list = await getJson(`${api}/booking/bookings/?page_size=100`, state.CUSTOMER);
    const retried = (list.results as { starts_at: string; status: string }[]).filter(
      (b) => b.starts_at === '2030-08-01T09:00:00.000Z',
    );
    expect(retried).toEqual([expect.objectContaining({ status: 'requested' })]);
  }, 90_000);
});
