import { describe, expect, it } from 'vitest';
import { integrityProblems } from './integrity.ts';
import {
  databaseOfFile,
  distinctWindow,
  type Fixture,
  makeFixture,
  type ServerProcess,
  startServer,
} from './server-process.ts';

// Kill -9 in the middle of a load of booking requests and click writes, restart on the same database,
// and check that every acknowledged write is there, whole. Runs on SQLite (npm test) or on PostgreSQL
// (npm run test:pg, a database of its own on TEST_DATABASE_URL's server).

const CYCLES = Number(process.env.DURABILITY_CYCLES ?? 3);
const BOOKING_WORKERS = 6;
const CLICK_WORKERS = 4;

const database = databaseOfFile();

interface Acked {
  bookings: Map<number, { starts_at: string; ends_at: string }>;
  clicks: Set<number>;
}

/** Runs the load until `stop()`; records every 2xx; counts requests still open when stopped. */
function load(server: ServerProcess, fixture: Fixture, acked: Acked) {
  let stopped = false;
  let open = 0;
  let openAtStop = 0;
  const bookingWorker = async () => {
    while (!stopped) {
      const window = distinctWindow();
      open++;
      try {
        const res = await fetch(`${server.url}/api/v1/booking/bookings/request/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.customerToken}` },
          body: JSON.stringify({ equipment_item_id: fixture.listingId, ...window }),
        });
        const body = (await res.json()) as { id: number; status: string };
        if (res.status === 201) acked.bookings.set(body.id, window);
        else if (!stopped) throw new Error(`booking request: ${res.status} ${JSON.stringify(body)}`);
      } catch (error) {
        if (!stopped) throw error;
      } finally {
        open--;
      }
    }
  };
  const clickWorker = async () => {
    while (!stopped) {
      open++;
      try {
        const res = await fetch(`${server.url}/api/v1/equipment/items/${fixture.publicId}/?utm_source=load`);
        const body = (await res.json()) as { marketing_click_id: number };
        if (res.status === 200) acked.clicks.add(body.marketing_click_id);
        else if (!stopped) throw new Error(`detail view: ${res.status} ${JSON.stringify(body)}`);
      } catch (error) {
        if (!stopped) throw error;
      } finally {
        open--;
      }
    }
  };
  const workers = [
    ...Array.from({ length: BOOKING_WORKERS }, bookingWorker),
    ...Array.from({ length: CLICK_WORKERS }, clickWorker),
  ];
  return {
    stop() {
      stopped = true;
      openAtStop = open;
    },
    done: Promise.all(workers),
    openAtStop: () => openAtStop,
  };
}

describe('durability across kill -9', () => {
  it(`keeps every acknowledged booking and click, whole, over ${CYCLES} kill/restart cycles`, async () => {
    const acked: Acked = { bookings: new Map(), clicks: new Set() };
    let server = await startServer(database().url);
    const fixture = await makeFixture(server.url);
    const figures: string[] = [];
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      if (cycle > 1) server = await startServer(database().url);
      const before = { bookings: acked.bookings.size, clicks: acked.clicks.size };
      const run = load(server, fixture, acked);
      // kill once this cycle has a real share of writes behind it, with requests still in flight
      const deadline = Date.now() + 20_000;
      while (
        (acked.bookings.size - before.bookings < 100 || acked.clicks.size - before.clicks < 100) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 10));
      run.stop();
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      await run.done;
      figures.push(
        `cycle ${cycle}: ${acked.bookings.size - before.bookings} bookings, ` +
          `${acked.clicks.size - before.clicks} clicks acknowledged; ${run.openAtStop()} requests open at the kill`,
      );
      expect(acked.bookings.size - before.bookings).toBeGreaterThanOrEqual(100);
      expect(run.openAtStop()).toBeGreaterThan(0);
    }

    // the restarted server serves what was acknowledged before the last kill
    server = await startServer(database().url);
    const [someId] = [...acked.bookings.keys()].slice(-1);
    const res = await fetch(`${server.url}/api/v1/booking/bookings/${someId}/`, {
      headers: { authorization: `Bearer ${fixture.customerToken}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('requested');
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const handle = database().open();
    try {
      const bookings = await handle.db
        .selectFrom('bookings')
        .select(['id', 'starts_at', 'ends_at', 'status', 'customer_id', 'listing_id', 'total_price_cents'])
        .execute();
      const byId = new Map(bookings.map((b) => [b.id, b]));
      const missing: number[] = [];
      for (const [id, window] of acked.bookings) {
        const row = byId.get(id);
        if (!row) {
          missing.push(id);
          continue;
        }
        expect(row).toMatchObject({
          starts_at: Date.parse(window.starts_at),
          ends_at: Date.parse(window.ends_at),
          status: 'requested',
          customer_id: fixture.customerId,
          listing_id: fixture.listingId,
          total_price_cents: 4500,
        });
      }
      expect(missing).toEqual([]);
      const clicks = new Set(
        (
          await handle.db
            .selectFrom('listing_clicks')
            .select('id')
            .where('listing_id', '=', fixture.listingId)
            .execute()
        ).map((c) => c.id),
      );
      expect([...acked.clicks].filter((id) => !clicks.has(id))).toEqual([]);
      expect(await integrityProblems(handle.db, database().dialect)).toEqual([]);
      console.log(
        `durability (${database().dialect}): ${figures.join('; ')}; ` +
          `in the database: ${bookings.length} bookings (${acked.bookings.size} acknowledged), ${clicks.size} clicks ` +
          `(${acked.clicks.size} acknowledged)`,
      );
    } finally {
      await handle.close();
    }
  }, 120_000);
});
