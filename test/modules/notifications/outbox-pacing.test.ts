import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUSY_SHARE,
  BUSY_UTILIZATION,
  createPacer,
  GLANCE_MS,
  waitAfterBatch,
} from '../../../src/modules/notifications/outbox-pacing.ts';

// How the outbox worker shares the event loop with requests (outbox-pacing.ts): at once when the loop has
// room, at most BUSY_SHARE of it while requests keep it busy, measured on the real loop.

describe('waitAfterBatch', () => {
  it('goes on at once while other work leaves the loop room', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 60_000, noNaN: true }),
        fc.double({ min: 0, max: BUSY_UTILIZATION, maxExcluded: true, noNaN: true }),
        (batchMs, utilization) => {
          expect(waitAfterBatch(batchMs, utilization)).toBe(0);
        },
      ),
    );
  });

  it('on a busy loop, waits so that the batch is at most BUSY_SHARE of batch and wait', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 60_000, noNaN: true }),
        fc.double({ min: BUSY_UTILIZATION, max: 1, noNaN: true }),
        (batchMs, utilization) => {
          const wait = waitAfterBatch(batchMs, utilization);
          expect(batchMs / (batchMs + wait)).toBeCloseTo(BUSY_SHARE, 9);
        },
      ),
    );
    expect(waitAfterBatch(40, 0.9)).toBeCloseTo(360, 9);
  });
});

describe('createPacer', () => {
  it('glances, then waits only when the loop was busy meanwhile, and not at all once stopped', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
    };
    let utilization = 0.2;
    const pace = createPacer(() => ({ since: () => utilization }), wait);
    await pace(30, new AbortController().signal);
    expect(waits).toEqual([GLANCE_MS]);

    utilization = 0.95;
    waits.length = 0;
    await pace(30, new AbortController().signal);
    expect(waits).toEqual([GLANCE_MS, 270]);

    const stopped = new AbortController();
    stopped.abort();
    waits.length = 0;
    await pace(30, stopped.signal);
    expect(waits).toEqual([GLANCE_MS]);
  });

  it("measures Node's own event loop: a batch of 50 ms waits about 450 ms more while the loop is kept busy", async () => {
    const pace = createPacer();
    const signal = new AbortController().signal;
    // idle: no more than the glance (the shortest of three, so that one pause of the test runner's own
    // cannot make a 2 ms glance look busy)
    const idle: number[] = [];
    for (let i = 0; i < 3; i++) {
      const idleStart = performance.now();
      await pace(50, signal);
      idle.push(performance.now() - idleStart);
    }
    expect(Math.min(...idle)).toBeLessThan(100);

    // other work holding the loop for 20 ms out of every 21, as a stream of requests would
    const spin = setInterval(() => {
      const until = performance.now() + 20;
      while (performance.now() < until);
    }, 1);
    try {
      const busyStart = performance.now();
      await pace(50, signal);
      expect(performance.now() - busyStart).toBeGreaterThanOrEqual(450);
    } finally {
      clearInterval(spin);
    }
  });

  it('a stop ends a long wait early', async () => {
    const pace = createPacer(() => ({ since: () => 1 }));
    const stopping = new AbortController();
    const started = performance.now();
    const paced = pace(10_000, stopping.signal);
    setTimeout(() => stopping.abort(), 20);
    await paced;
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
