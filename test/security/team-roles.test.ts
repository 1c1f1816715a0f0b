import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VendorRole } from '../../src/db/database.ts';
import type { RouteEntry } from '../../src/http/openapi.ts';
import { VENDOR_ROLES } from '../../src/http/team-roles.ts';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { installChangeCounter } from '../helpers/db-changes.ts';
import type { Account } from '../helpers/factories.ts';
import { addTeamMember } from '../helpers/team-factories.ts';
import { errorBodyProblem } from './error-body.ts';
import {
  apiRoutes,
  encodedBody,
  freshTarget,
  routeName,
  sampleBody,
  sampleHeaders,
  sampleQuery,
  sampleUrl,
  startWithRoute,
} from './routes.ts';
import { buildWorld, type World } from './world.ts';

// The permission table of a vendor's team (decisions §25) through HTTP: every vendor route the server
// registers, tried by a member of each role. The expectation is the route's own declaration in the route
// table (the one the auth hook enforces), so a new vendor route is in this matrix without being listed;
// the hand-written cases in team-cases.test.ts pin the declarations that matter most.

let t: TestApp;
let w: World;
let changes: () => Promise<number>;
let members: Record<VendorRole, Account>;

beforeAll(async () => {
  t = await buildTestApp();
  w = await buildWorld(t);
  members = { owner: w.a.vendor, manager: await addTeamMember(t, w.a.vendor, 'manager'), staff: w.a.member };
  changes = (await installChangeCounter(t.db, t.dialect)).read;
}, 120_000);
afterAll(() => t?.close());

const vendorRoutes = () => apiRoutes(t.app).filter((r) => r.auth === 'vendor');

async function call(route: RouteEntry, account: Account, id?: number) {
  const encoded = await encodedBody(sampleBody(w, w.a, route));
  return t.app.inject({
    method: route.method as 'GET',
    url: sampleUrl(w, w.a, route, id) + sampleQuery(w.a, route),
    headers: { ...sampleHeaders(route), ...encoded.headers, authorization: `Bearer ${account.token}` },
    ...(encoded.payload === undefined ? {} : { payload: encoded.payload }),
  });
}

describe('the permission table', () => {
  it('declares the roles of every vendor route, the owner always among them', () => {
    const routes = vendorRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const undeclared = routes.filter((r) => !r.roles?.includes('owner')).map(routeName);
    expect(undeclared).toEqual([]);
    // no other kind of route declares roles
    expect(
      apiRoutes(t.app)
        .filter((r) => r.auth !== 'vendor' && r.roles)
        .map(routeName),
    ).toEqual([]);
    // the document says it too (on every documented route; the misspelt alias paths are hidden)
    for (const route of routes.filter((r) => !r.schema?.hide))
      expect(route.schema?.['x-team-roles'], routeName(route)).toEqual(route.roles);
  });

  it('refuses to start with a vendor route that declares no roles, or a bad declaration', async () => {
    for (const [config, message] of [
      [{ auth: 'vendor' }, /declares no config\.roles/],
      [{ auth: 'vendor', roles: [] }, /not a list of roles/],
      [{ auth: 'vendor', roles: ['manager'] }, /leaves out the owner/],
      [{ auth: 'vendor', roles: ['owner', 'guide'] }, /unknown roles guide/],
      [{ auth: 'public', roles: ['owner'] }, /only a vendor route may/],
    ] as const)
      await expect(startWithRoute(config)).rejects.toThrow(message);
  });
});

describe('each role against each vendor route', () => {
  it('answers 403 permission_denied to a role the route does not declare, changing nothing', async () => {
    const failures: string[] = [];
    let refused = 0;
    for (const route of vendorRoutes())
      for (const role of VENDOR_ROLES) {
        if (route.roles?.includes(role)) continue;
        refused++;
        const before = await changes();
        const res = await call(route, members[role]);
        const where = `${routeName(route)} as ${role}`;
        if (res.statusCode !== 403) failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        else if (res.json().code !== 'permission_denied') failures.push(`${where}: code ${res.json().code}`);
        else if (errorBodyProblem(res)) failures.push(`${where}: ${errorBodyProblem(res)}`);
        else if ((await changes()) !== before) failures.push(`${where}: the database changed`);
      }
    // staff are refused most vendor routes, managers the team's
    expect(refused).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  }, 60_000);

  it('lets every declared role through (2xx), the hand-over last since it changes the owner', async () => {
    const failures: string[] = [];
    const routes = vendorRoutes().sort(
      (a, b) => Number(/make-owner/.test(a.url)) - Number(/make-owner/.test(b.url)),
    );
    let allowed = 0;
    for (const route of routes)
      for (const role of VENDOR_ROLES) {
        if (!route.roles?.includes(role)) continue;
        allowed++;
        const res = await call(route, members[role], await freshTarget(w, w.a, route));
        if (res.statusCode >= 300)
          failures.push(`${routeName(route)} as ${role}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    expect(allowed).toBeGreaterThan(vendorRoutes().length);
    expect(failures).toEqual([]);
  }, 90_000);
});
