import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import type { Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { inTransaction } from '../../src/db/transactions.ts';
import { readSharedPerTurn } from '../../src/db/turn-read.ts';
import { catalogVersion } from '../../src/modules/catalog/listings.repository.ts';

let handle: DbHandle;
beforeAll(async () => {
  handle = createDb('sqlite::memory:');
  await migrateToLatest(handle.db);
});
afterAll(() => handle.close());

const bumpVersion = (db: Db) =>
  sql`update cache_versions set version = version + 1 where name = 'catalog'`.execute(db);
const storedVersion = async (db: Db) =>
  Number(
    (await sql<{ version: number }>`select version from cache_versions where name = 'catalog'`.execute(db))
      .rows[0].version,
  );

describe('readSharedPerTurn', () => {
  it('answers the callers of one turn with one read', async () => {
    let reads = 0;
    const read = readSharedPerTurn(async (db) => {
      reads++;
      return storedVersion(db);
    });
    const answers = await Promise.all([read(handle.db), read(handle.db), read(handle.db)]);
    const version = await storedVersion(handle.db);
    expect(answers).toEqual([version, version, version]);
    expect(reads).toBe(1);
    await bumpVersion(handle.db);
    expect(await read(handle.db)).toBe(version + 1);
    expect(reads).toBe(2);
  });

  it('never answers a caller with a read that started before it asked', async () => {
    let reads = 0;
    let release = () => {};
    let started = () => {};
    const readStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const read = readSharedPerTurn(async (db) => {
      reads++;
      const value = await storedVersion(db);
      if (reads === 1) {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      return value;
    });
    const first = read(handle.db);
    await readStarted;
    // a write acknowledged while the first read is under way, then a second caller
    await bumpVersion(handle.db);
    const second = read(handle.db);
    const afterWrite = await storedVersion(handle.db);
    release();
    expect(await first).toBe(afterWrite - 1);
    expect(await second).toBe(afterWrite);
    expect(reads).toBe(2);
  });

  it('reads inside a transaction through it, seeing its own writes', async () => {
    const before = await catalogVersion(handle.db);
    const inside = await inTransaction(handle.db, async (trx) => {
      await bumpVersion(trx);
      return catalogVersion(trx);
    });
    expect(inside).toBe(before + 1);
    expect(await catalogVersion(handle.db)).toBe(before + 1);
  });

  it('rejects every caller of a failed read, and reads again afterwards', async () => {
    let reads = 0;
    const read = readSharedPerTurn(async () => {
      reads++;
      if (reads === 1) throw new Error('database gone');
      return 7;
    });
    const failedReads = await Promise.allSettled([read(handle.db), read(handle.db)]);
    expect(failedReads.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await read(handle.db)).toBe(7);
    expect(reads).toBe(2);
  });
});
