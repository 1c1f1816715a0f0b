import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTwoServers } from './two-servers.ts';

// Channels' keys under real concurrency (decisions §24): two server processes on one database (a SQLite
// file, or PostgreSQL with TEST_DATABASE_URL), simultaneous HTTP requests spread over both. Simultaneous
// rotations leave exactly one working key, the stored one; simultaneous creations make as many channels,
// each with its own account and a key that works.

const world = useTwoServers();
const { send, account } = world;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const supplier = (key: string) => send('GET', '/octo/v1/supplier', undefined, key);

describe('channel keys at once', () => {
  it('leaves exactly one working key after simultaneous rotations: the one stored', async () => {
    const owner = await account('vendor', { business_name: 'Racing resales' });
    const made = await send('POST', '/api/v1/channels/', { name: 'Racing reseller' }, owner.token);
    expect(made.status).toBe(201);
    const id = made.json.id as number;
    const rotations = await Promise.all(
      Array.from({ length: 12 }, () =>
        send('POST', `/api/v1/channels/${id}/rotate-key/`, undefined, owner.token),
      ),
    );
    expect(rotations.map((r) => r.status)).toEqual(Array(12).fill(201));
    const keys = rotations.map((r) => r.json.api_key as string);
    expect(new Set(keys).size).toBe(12);
    const statuses = await Promise.all(
      [made.json.api_key as string, ...keys].map(async (k) => (await supplier(k)).status),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(12);
    const working = [made.json.api_key as string, ...keys][statuses.indexOf(200)];
    const row = await world.handle.db
      .selectFrom('channels')
      .select('key_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(working));
  });

  it('makes as many channels as simultaneous creations, each with its own account and working key', async () => {
    const owner = await account('vendor', { business_name: 'Racing resales' });
    const created = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        send('POST', '/api/v1/channels/', { name: `Reseller ${i}` }, owner.token),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(16).fill(201));
    const ids = created.map((r) => r.json.id as number);
    const rows = await world.handle.db
      .selectFrom('channels')
      .select(['id', 'account_id', 'key_hash'])
      .where('id', 'in', ids)
      .execute();
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => r.account_id)).size).toBe(16);
    expect(new Set(rows.map((r) => r.key_hash)).size).toBe(16);
    const answers = await Promise.all(created.map((r) => supplier(r.json.api_key as string)));
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
  });
});
