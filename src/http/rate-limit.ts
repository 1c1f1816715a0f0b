import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { Clock } from '../lib/clock.ts';
import { MINUTE_MS } from '../lib/datetime.ts';
import { AppError } from './errors.ts';
import { countHit, deleteLapsedHits } from './rate-limit.repository.ts';

// Rate limits (decisions §18): the routes name theirs in `config.rateLimit`. On PostgreSQL every server
// process counts in one table, so the limits hold for the service as a whole however many instances
// serve it; on SQLite each process counts in its own memory (@fastify/rate-limit's store), as a SQLite
// file is served by the processes of one machine and a counter there would take the write lock that
// bookings wait for.

/** How often one server process deletes the counters of windows that have passed (on a hit after it). */
const PRUNE_INTERVAL_MS = 10 * MINUTE_MS;

export interface RateLimitDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** Registers the limiter before the routes it covers; a refusal is 429 `throttled` with Retry-After (§1). */
export async function registerRateLimit(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  const shared = dialectOf(deps.db) === 'postgres' ? sharedStore(deps, app.log) : undefined;
  if (shared) app.addHook('preClose', shared.drain);
  await app.register(rateLimit, {
    global: false,
    store: shared?.Store,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.ceil(context.ttl / 1000);
      return new AppError('throttled', `Request was throttled. Expected available in ${seconds} seconds.`, {
        headers: { 'Retry-After': String(seconds) },
      });
    },
  });
}

/** What the plugin hands a route's store: its options merged with the route's own (`routeInfo`). */
interface RouteStoreOptions {
  routeInfo: { method: string | string[]; url: string };
}

/**
 * The store counting in `rate_limit_hits`, with the application's clock (decisions §1): one upsert per
 * limited request. Each route's store (`child`) prefixes the client's address with the route, so each
 * route has its own counters, as with the in-memory store. Lapsed windows are deleted now and then, off
 * the request's path; `drain` waits for a delete still running (before the database closes).
 */
function sharedStore(deps: RateLimitDeps, log: FastifyBaseLogger) {
  let pruneDueAt = 0;
  let pruning: Promise<void> | undefined;

  function pruneIfDue(now: number): void {
    if (now < pruneDueAt || pruning) return;
    pruneDueAt = now + PRUNE_INTERVAL_MS;
    pruning = deleteLapsedHits(deps.db, now).then(
      () => {
        pruning = undefined;
      },
      (error) => {
        pruning = undefined;
        log.error({ err: error }, 'deleting lapsed rate-limit counters failed');
      },
    );
  }

  class SharedRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    constructor(_options: unknown, prefix = '') {
      this.#prefix = prefix;
    }

    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number): void {
      const now = deps.clock.now().getTime();
      countHit(deps.db, this.#prefix + key, now, now + timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.expires_at - now }),
        (error: Error) => callback(error),
      );
      pruneIfDue(now);
    }

    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // the plugin's types describe the route's options, but it passes them as `routeInfo`
      const { method, url } = (options as unknown as RouteStoreOptions).routeInfo;
      return new SharedRateLimitStore(options, `${[method].flat().join(',')} ${url} `);
    }
  }

  return {
    Store: SharedRateLimitStore satisfies FastifyRateLimitStoreCtor,
    drain: async () => {
      await pruning;
    },
  };
}
