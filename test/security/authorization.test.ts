import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RULES, type AuthRule } from '../../src/http/auth.ts';
import type { RouteEntry } from '../../src/http/openapi.ts';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { installChangeCounter } from '../helpers/db-changes.ts';
import type { Account } from '../helpers/factories.ts';
import { errorBodyProblem } from './error-body.ts';
import {
  apiRoutes,
  bodyFields,
  encodedBody,
  freshTarget,
  ownedResource,
  routeName,
  type SampleBody,
  sampleBody,
  sampleHeaders,
  sampleQuery,
  sampleUrl,
  startWithRoute,
  UNOWNED,
} from './routes.ts';
import { buildWorld, type Party, pathParams, type World } from './world.ts';

// The authorisation matrix, generated from the route table: every route the server registers is tried
// with no token, bad tokens, tokens of each account kind, and as a stranger or the wrong party of the
// resource its path names. Failures are collected per route, so one run lists every gap.

let t: TestApp;
let w: World;
let changes: () => Promise<number>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await buildWorld(t);
  changes = (await installChangeCounter(t.db, t.dialect)).read;
}, 120_000);
afterAll(() => t?.close());

/** Who each rule turns away with 403 (valid tokens of the wrong kind) and who passes it. */
const RULES: Record<AuthRule, { forbidden: (w: World) => Account[]; passes: (w: World) => Account[] }> = {
  public: { forbidden: () => [], passes: (w) => [w.a.customer, w.a.vendor, w.staff] },
  user: { forbidden: () => [], passes: (w) => [w.a.customer, w.a.vendor, w.staff] },
  vendor: { forbidden: (w) => [w.a.customer, w.staff], passes: (w) => [w.a.vendor] },
  customer: { forbidden: (w) => [w.a.vendor], passes: (w) => [w.a.customer] },
  staff: { forbidden: (w) => [w.a.customer, w.a.vendor], passes: (w) => [w.staff] },
  // a reseller's key, no account's token: the OCTO suites (test/modules/octo) try those routes
  channel: { forbidden: () => [], passes: () => [] },
};

interface Call {
  route: RouteEntry;
  token?: string;
  authorization?: string;
  party?: Party;
  url?: string;
  body?: SampleBody;
}

async function call({ route, token, authorization, party, url, body }: Call) {
  const p = party ?? w.a;
  const encoded = await encodedBody(body ?? sampleBody(w, p, route));
  const headers: Record<string, string> = { ...sampleHeaders(route), ...encoded.headers };
  if (authorization !== undefined) headers.authorization = authorization;
  else if (token) headers.authorization = `Bearer ${token}`;
  return t.app.inject({
    method: route.method as 'GET',
    url: (url ?? sampleUrl(w, p, route)) + sampleQuery(p, route),
    headers,
    ...(encoded.payload === undefined ? {} : { payload: encoded.payload }),
  });
}

/** Runs a call, checks status, code, error body and that the database did not change; returns problems. */
async function expectRejected(
  c: Call,
  status: number,
  code: string | null,
  label: string,
): Promise<string | null> {
  const before = await changes();
  const res = await call(c);
  const after = await changes();
  const where = `${routeName(c.route)} ${label}`;
  if (res.statusCode !== status) return `${where}: ${res.statusCode} ${res.body.slice(0, 160)}`;
  if (after !== before) return `${where}: the database changed (${after - before} rows)`;
  if (c.route.method === 'HEAD') return null;
  const problem = errorBodyProblem(res);
  if (problem) return `${where}: ${problem}`;
  if (code && res.json().code !== code) return `${where}: code ${res.json().code}, expected ${code}`;
  return null;
}

describe('the route table', () => {
  it('lists every module route, each with a rule this matrix covers', () => {
    const routes = apiRoutes(t.app);
    const names = routes.map(routeName);
    // the table is the real one: known routes of every module are in it
    for (const known of [
      'POST /api/v1/accounts/token/',
      'GET /api/v1/equipment/vendor/items/:id/',
      'POST /api/v1/booking/bookings/:id/approve/',
      'GET /api/v1/payment/:payment_id/status/',
      'DELETE /api/v1/categories/:id/',
    ])
      expect(names).toContain(known);
    expect(routes.length).toBeGreaterThanOrEqual(40);
    const uncovered = routes.filter((r) => !(r.auth in RULES)).map((r) => `${routeName(r)} (${r.auth})`);
    expect(uncovered).toEqual([]);
    // and the matrix knows every rule the server knows
    expect(Object.keys(RULES).sort()).toEqual([...AUTH_RULES].sort());
    expect(new Set(routes.map((r) => r.auth))).toEqual(
      new Set(['public', 'user', 'vendor', 'customer', 'staff']),
    );
  });

  it('names an owner or a shared value for every path parameter', () => {
    const unserved = apiRoutes(t.app)
      .filter((r) => pathParams(r.url).length > 0)
      .filter((r) => !ownedResource(r.url) && !UNOWNED.some((u) => u.match.test(r.url)))
      .map(routeName);
    expect(unserved).toEqual([]);
    // a resource a caller may own is never reached by a public route
    const publicOwned = apiRoutes(t.app)
      .filter((r) => r.auth === 'public' && ownedResource(r.url))
      .map(routeName);
    expect(publicOwned).toEqual([]);
  });

  it('refuses to start with a route that declares no rule, or an unknown one', async () => {
    for (const config of [{}, { auth: 'admin' }])
      await expect(startWithRoute(config)).rejects.toThrow(/declares (no|an unknown) config\.auth/);
  });
});

describe('authentication', () => {
  it('answers 401 to every non-public route without a valid access token', async () => {
    const routes = t.app.routeTable.filter((r) => !r.internal && r.auth !== 'public' && r.auth !== 'channel');
    const cases: [string, Partial<Call>, string][] = [
      ['without a token', {}, 'not_authenticated'],
      ['with an expired token', { token: w.tokens.expired }, 'token_not_valid'],
      ['with a tampered payload', { token: w.tokens.tampered }, 'token_not_valid'],
      ['with an altered signature', { token: w.tokens.badSignature }, 'token_not_valid'],
      ['with alg none', { token: w.tokens.algNone }, 'token_not_valid'],
      ['with another key', { token: w.tokens.foreignKey }, 'token_not_valid'],
      ['with a refresh token', { token: w.tokens.refreshAsAccess }, 'token_not_valid'],
      ['with garbage', { token: w.tokens.garbage }, 'token_not_valid'],
      ['with Basic credentials', { authorization: 'Basic YWRtaW46YWRtaW4=' }, 'token_not_valid'],
      ['with an empty Bearer', { authorization: 'Bearer ' }, 'token_not_valid'],
    ];
    const failures: string[] = [];
    for (const route of routes)
      for (const [label, c, code] of cases) {
        const problem = await expectRejected({ route, ...c }, 401, code, label);
        if (problem) failures.push(problem);
      }
    expect(routes.length).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('ignores bad tokens on public routes (the caller is anonymous)', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes(t.app).filter((r) => r.auth === 'public'))
      for (const token of [w.tokens.expired, w.tokens.algNone, w.tokens.tampered, w.tokens.garbage]) {
        const res = await call({ route, token });
        if (res.statusCode === 401 && !/\/accounts\/token/.test(route.url))
          failures.push(`${routeName(route)}: 401 ${res.body}`);
        if (res.statusCode >= 500) failures.push(`${routeName(route)}: ${res.statusCode}`);
      }
    expect(failures).toEqual([]);
  });
});

describe('account kinds', () => {
  it('answers 403 to a valid token of the wrong kind, before anything changes', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of apiRoutes(t.app))
      for (const account of RULES[route.auth].forbidden(w)) {
        checked++;
        const problem = await expectRejected(
          { route, token: account.token },
          403,
          'permission_denied',
          `as ${account.email}`,
        );
        if (problem) failures.push(problem);
      }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});

describe('ownership', () => {
  it('answers 404 to a stranger and 403 to the wrong party of a booking or payment', async () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const route of apiRoutes(t.app)) {
      const owned = ownedResource(route.url);
      if (!owned || route.auth === 'public') continue;
      seen.add(owned.kind);
      const strangers =
        route.auth === 'vendor'
          ? [w.b.vendor]
          : route.auth === 'customer'
            ? [w.b.customer]
            : [w.b.customer, w.b.vendor];
      for (const stranger of strangers) {
        // the stranger's own body, aimed at party A's resource
        const url = sampleUrl(w, w.a, route);
        const problem = await expectRejected(
          { route, token: stranger.token, party: w.b, url },
          404,
          'not_found',
          'as a stranger',
        );
        if (problem) failures.push(problem);
      }
      if (owned.twoParty && route.auth !== 'user') {
        const wrong = route.auth === 'vendor' ? w.a.customer : w.a.vendor;
        const problem = await expectRejected(
          { route, token: wrong.token },
          403,
          'permission_denied',
          'as the other party',
        );
        if (problem) failures.push(problem);
      }
    }
    expect([...seen].sort()).toEqual([
      'booking',
      'channel',
      'delivery',
      'endpoint',
      'invitation',
      'listing',
      'member',
      'payment',
      'photo',
      'promo_code',
      'resource',
      'slot',
    ]);
    expect(failures).toEqual([]);
  });

  it("answers 404 to a body naming another account's booking or listing", async () => {
    // Body fields that name an owned resource: a booking must be the caller's own; on vendor routes a
    // listing must be the caller's own (any customer may book any listing).
    const failures: string[] = [];
    let checked = 0;
    for (const route of apiRoutes(t.app).filter((r) => r.auth !== 'public' && r.schema?.body)) {
      const fields = bodyFields(route);
      const foreign: Record<string, number> = {};
      if (fields.includes('booking_id')) foreign.booking_id = w.b.paidBookingId;
      if (route.auth === 'vendor' && fields.includes('equipment_item_id'))
        foreign.equipment_item_id = w.b.equipment.id;
      if (!Object.keys(foreign).length) continue;
      const account = route.auth === 'vendor' ? w.a.vendor : w.a.customer;
      checked++;
      const body = { ...sampleBody(w, w.a, route), ...foreign };
      const problem = await expectRejected(
        { route, token: account.token, body },
        404,
        'not_found',
        'foreign body id',
      );
      if (problem) failures.push(problem);
    }
    expect(checked).toBeGreaterThanOrEqual(2);
    expect(failures).toEqual([]);
  });

  it('lets the owners through (the 404s above are not blanket refusals)', async () => {
    const failures: string[] = [];
    // the hand-over last: after it the world's vendor is a manager, refused what only owners may do
    const routes = apiRoutes(t.app).sort(
      (a, b) => Number(/make-owner/.test(a.url)) - Number(/make-owner/.test(b.url)),
    );
    for (const route of routes) {
      const owned = ownedResource(route.url);
      for (const account of RULES[route.auth].passes(w)) {
        if (owned) {
          const isParty = account === w.a.vendor || (owned.twoParty && account === w.a.customer);
          if (!isParty) continue;
        }
        // requests that change or consume their resource get a fresh one
        const id = await freshTarget(w, w.a, route);
        const res = await call({ route, token: account.token, url: sampleUrl(w, w.a, route, id) });
        if (
          res.statusCode >= 300 &&
          // a made-up refresh or reset token is refused by the routes that take one, whoever calls
          !(res.statusCode === 401 && /\/accounts\/(token\/refresh|logout)\//.test(route.url)) &&
          !(
            res.statusCode === 400 &&
            /\/accounts\/(password\/reset\/confirm|team\/invitations\/accept)\//.test(route.url)
          ) &&
          // so is a made-up calendar feed token (the feed's own suite reads real ones, which rotate)
          !(res.statusCode === 404 && /^\/calendar\//.test(route.url))
        )
          failures.push(
            `${routeName(route)} as ${account.email}: ${res.statusCode} ${res.body.slice(0, 160)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
