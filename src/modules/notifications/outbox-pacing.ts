import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

// Delivery is background work that shares the event loop with the requests. Under a booking load every
// request queues two mails and delivering them costs several times the request itself, so a worker
// that always goes on at once takes the larger part of the loop from the requests. Between two batches
// the worker therefore stands aside briefly and looks at what the rest of the process did meanwhile:
// with room to spare it goes on at once; while requests keep the loop busy it waits long enough to take
// at most BUSY_SHARE of the loop, so mail lags behind a peak and catches up after it, and never stops.
// Every event is still written in its request's transaction: waiting delays a message, never loses one.

/** The most of the event loop delivery takes while requests keep it busy. */
export const BUSY_SHARE = 0.1;
/** The loop counts as busy when other work used at least this share of it while delivery stood aside. */
export const BUSY_UTILIZATION = 0.5;
/** How long the worker stands aside after every batch to see whether others want the loop. */
export const GLANCE_MS = 2;

/**
 * How much longer to stand aside after a batch that took `batchMs`, when other work used `utilization`
 * (0..1) of the loop during the glance: none when the loop had room, else enough that the batch is at most
 * BUSY_SHARE of the batch and the wait together.
 */
export function waitAfterBatch(batchMs: number, utilization: number): number {
  if (utilization < BUSY_UTILIZATION) return 0;
  return Math.max(0, batchMs) * ((1 - BUSY_SHARE) / BUSY_SHARE);
}

/** The share of the event loop other work used since `start` (Node's event loop utilisation). */
export type LoopMeter = () => { since(): number };

const nodeLoopMeter: LoopMeter = () => {
  const start = performance.eventLoopUtilization();
  return { since: () => performance.eventLoopUtilization(start).utilization };
};

/** A wait that ends early, without an error, when `signal` aborts (the worker is stopping). */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

const nodeWait: Wait = (ms, signal) =>
  sleep(ms, undefined, { signal }).then(
    () => undefined,
    () => undefined,
  );

/**
 * Waits after a batch that took `batchMs`, as waitAfterBatch says, measuring the loop while it glances;
 * returns at once when `signal` has aborted.
 */
export function createPacer(
  meter: LoopMeter = nodeLoopMeter,
  wait: Wait = nodeWait,
): (batchMs: number, signal: AbortSignal) => Promise<void> {
  return async (batchMs, signal) => {
    const glance = meter();
    await wait(GLANCE_MS, signal);
    const more = waitAfterBatch(batchMs, glance.since());
    if (more > 0 && !signal.aborted) await wait(more, signal);
  };
}
