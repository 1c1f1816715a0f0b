import type { FastifyBaseLogger } from 'fastify';
import type { BookingDeps } from './booking.deps.ts';
import { expireLapsedBookings } from './booking.transitions.ts';

// The background job of decisions §11: records lapsed holds as expired within the interval. Nothing
// depends on it for correctness (every read and check compares expires_at with now); it writes down
// the transition in status_history. Every server process runs one; the guarded updates make them agree.

export interface ExpirySweeper {
  /** Stops the timer and waits for a sweep under way to finish. */
  stop(): Promise<void>;
}

export function startExpirySweeper(
  deps: Pick<BookingDeps, 'db' | 'clock'>,
  intervalMs: number,
  log: FastifyBaseLogger,
): ExpirySweeper {
  let running: Promise<void> | undefined;
  const sweep = () => {
    // a sweep still under way (a slow database) is not doubled; the next tick catches up
    if (running) return;
    running = expireLapsedBookings(deps)
      .then(
        (recorded) => {
          if (recorded > 0) log.info({ recorded }, 'expired bookings recorded');
        },
        (error: unknown) => log.error({ err: error }, 'expiry sweep failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  // the timer alone never keeps the process alive
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
