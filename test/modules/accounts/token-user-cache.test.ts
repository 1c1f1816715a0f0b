import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { DbHandle } from '../../../src/db/create-db.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer } from '../../helpers/factories.ts';

// The user behind an access token is cached per accounts version (src/db/cache-versions.ts): a change
// made through another server process, or by hand in the database, is seen by the very next request.

describe('users behind access tokens, across server instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'token-user-cache-'));
  let t: TestApp;
  let second: { app: FastifyInstance; handle: DbHandle };
  let customer: Account;

  beforeAll(async () => {
    t = await buildTestApp({ dbFile: join(dir, 'db.sqlite') });
    const handle = t.openSecondHandle();
    second = { app: await buildApp(t.config, { db: handle.db, clock: t.clock }), handle };
    customer = await registerCustomer(t.app);
  });
  afterAll(async () => {
    await second.app.close();
    await second.handle.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** a staff-only call on the second instance: 403 for a customer, 201 for staff */
  const createCategoryOnSecond = (name: string) =>
    second.app.inject({
      method: 'POST',
      url: '/api/v1/categories/',
      headers: { authorization: `Bearer ${customer.token}` },
      payload: { name },
    });
  const meOnSecond = () =>
    second.app.inject({
      method: 'GET',
      url: '/api/v1/accounts/me/',
      headers: { authorization: `Bearer ${customer.token}` },
    });
  const accountsVersion = async () =>
    (
      await t.db
        .selectFrom('cache_versions')
        .select('version')
        .where('name', '=', 'accounts')
        .executeTakeFirstOrThrow()
    ).version;

  it('sees a user made staff elsewhere in the very next request', async () => {
    expect((await createCategoryOnSecond('Before promotion')).statusCode).toBe(403);
    await t.db.updateTable('users').set({ is_staff: 1 }).where('id', '=', customer.id).execute();
    const promoted = await createCategoryOnSecond('After promotion');
    expect(promoted.statusCode).toBe(201);
    expect(promoted.json().name).toBe('After promotion');
    await t.db.updateTable('users').set({ is_staff: 0 }).where('id', '=', customer.id).execute();
    expect((await createCategoryOnSecond('After demotion')).statusCode).toBe(403);
  });

  it('serves the cached user while the accounts version stands still', async () => {
    expect((await meOnSecond()).json().email).toBe(customer.email);
    const version = await accountsVersion();
    // a change slipped in without moving the version (only possible by hand, as here) is not seen ...
    await t.db.updateTable('users').set({ is_staff: 1 }).where('id', '=', customer.id).execute();
    await t.db.updateTable('cache_versions').set({ version }).where('name', '=', 'accounts').execute();
    expect((await createCategoryOnSecond('Still a customer')).statusCode).toBe(403);
    // ... until the version moves, as every real write moves it
    await t.db
      .updateTable('cache_versions')
      .set({ version: version + 1 })
      .where('name', '=', 'accounts')
      .execute();
    expect((await createCategoryOnSecond('Staff at last')).statusCode).toBe(201);
    await t.db.updateTable('users').set({ is_staff: 0 }).where('id', '=', customer.id).execute();
  });

  it('refuses the token of a user removed elsewhere', async () => {
    expect((await meOnSecond()).statusCode).toBe(200);
    await t.db.deleteFrom('refresh_tokens').where('user_id', '=', customer.id).execute();
    await t.db.deleteFrom('users').where('id', '=', customer.id).execute();
    const refused = await meOnSecond();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('token_not_valid');
  });

  it('moves the version with every registration', async () => {
    const before = await accountsVersion();
    await registerCustomer(t.app);
    expect(Number(await accountsVersion())).toBeGreaterThan(Number(before));
  });
});
