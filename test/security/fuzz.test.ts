import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/http/openapi.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';
import { installChangeCounter } from '../helpers/db-changes.ts';
import { errorBodyProblem } from './error-body.ts';
import { arbitraries, type FuzzRequest } from './fuzz-arbitraries.ts';
import { apiRoutes, routeName } from './routes.ts';
import { buildWorld, fillPath } from './world.ts';

// Property-based fuzzing of every registered route: generated paths, query strings, bodies and tokens.
// Every answer must be below 500; every error must have the decided body; a rejected request (4xx) must
// leave the database exactly as it was (row triggers count every committed change). Budget: FUZZ_REQUESTS
// (default 20,000 per database: about 20 s on SQLite, 35 s on PostgreSQL); FUZZ_SEED replays a run.

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
// Each accepted body on these routes hashes or verifies a password (argon2id, ~30 ms by design).
const SLOW = /\/accounts\/(register|token)/;
const SLOW_RUNS = 150;

const t = await buildTestApp();
const world = await buildWorld(t);
// a key's claim and kept answer are what a keyed request writes, refused or not (decisions §13)
const changes = (await installChangeCounter(t.db, t.dialect, { notCounted: ['idempotency_keys'] })).read;
const { request } = arbitraries(world);
const routes = apiRoutes(t.app);
const slow = routes.filter((r) => SLOW.test(r.url));
const runsPerRoute = Math.ceil((TOTAL - slow.length * SLOW_RUNS) / (routes.length - slow.length));

const stats = { requests: 0, byStatus: new Map<number, number>(), started: performance.now() };

afterAll(async () => {
  const seconds = ((performance.now() - stats.started) / 1000).toFixed(1);
  const statuses = [...stats.byStatus.entries()].sort(([x], [y]) => x - y).map(([s, n]) => `${s}:${n}`);
  console.log(
    `fuzz (${t.dialect}): ${stats.requests} requests over ${routes.length} routes in ${seconds} s; ${statuses.join(' ')}`,
  );
  await t.close();
});

/** An object body's text with a field nested `levels` deep first (text: no stack needed to build it). */
function withDeepField(json: string, levels: number | undefined): string {
  if (levels === undefined || !json.startsWith('{')) return json;
  const field = `"zz_deep":${'['.repeat(levels)}${']'.repeat(levels)}`;
  return json === '{}' ? `{${field}}` : `{${field},${json.slice(1)}`;
}

async function send(route: RouteEntry, req: FuzzRequest) {
  const headers: Record<string, string> = {};
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (req.referer) headers.referer = req.referer;
  if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
  let payload: string | undefined;
  if (req.body?.kind === 'json') {
    payload = withDeepField(JSON.stringify(req.body.value) ?? 'null', req.deepField);
    if (req.bom) payload = `\ufeff${payload}`;
    headers['content-type'] = 'application/json';
  } else if (req.body?.kind === 'raw') {
    payload = req.body.payload;
    if (req.body.contentType) headers['content-type'] = req.body.contentType;
  }
  return t.app.inject({
    method: route.method as 'GET',
    url: fillPath(route.url, req.path) + req.query,
    headers,
    payload,
  });
}

async function check(route: RouteEntry, req: FuzzRequest): Promise<void> {
  const before = await changes();
  const res = await send(route, req);
  const after = await changes();
  stats.requests++;
  stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
  const fail = (why: string) => {
    throw new Error(`${routeName(route)} → ${res.statusCode}: ${why}\nbody: ${res.body.slice(0, 300)}`);
  };
  if (res.statusCode >= 500) fail('server error');
  if (res.statusCode >= 400) {
    const problem = errorBodyProblem(res);
    if (problem) fail(problem);
    if (after !== before) fail(`a rejected request changed ${after - before} rows`);
  }
  if (/\$argon2|"password_hash"|"password"\s*:\s*"/.test(res.body))
    fail('a password or its hash in the response');
  if (
    /pi_mock_[A-Za-z0-9]+_secret_/.test(res.body) &&
    !(route.method === 'POST' && /\/payment\/intents\/$/.test(route.url))
  )
    fail('a client secret outside the payment-intent answer');
  if (({} as Record<string, unknown>).polluted !== undefined) fail('Object.prototype was polluted');
}

describe('fuzzing every route', () => {
  it('fuzzes a real route table with the planned budget', () => {
    expect(routes.length).toBeGreaterThanOrEqual(40);
    expect(slow.length * SLOW_RUNS + (routes.length - slow.length) * runsPerRoute).toBeGreaterThanOrEqual(
      TOTAL,
    );
  });

  for (const route of routes) {
    it(routeName(route), async () => {
      await fc.assert(
        fc.asyncProperty(request(route), (req) => check(route, req)),
        { numRuns: SLOW.test(route.url) ? SLOW_RUNS : runsPerRoute, seed: SEED },
      );
    }, 300_000);
  }
});
