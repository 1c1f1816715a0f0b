import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/create-db.ts';
import { type Finished, runNode } from '../../helpers/run-node.ts';
import { integrityProblems } from '../../reliability/integrity.ts';
import { distinctWindow, killServers, makeFixture, startServer } from '../../reliability/server-process.ts';

// `npm run cli -- backup <file>`: an online copy of the SQLite database, taken while a server writes to it,
// that holds every booking acknowledged before the copy began and passes SQLite's integrity check.
// SQLite only: on PostgreSQL the command refuses and points to pg_dump / pg_basebackup.

const dir = mkdtempSync(join(tmpdir(), 'backup-test-'));
afterAll(async () => {
  await killServers();
  rmSync(dir, { recursive: true, force: true });
});

const CLI = resolve('src/cli.ts');
const WORKERS = 6;

function backup(databaseFile: string, ...args: string[]): Promise<Finished> {
  return runNode([CLI, 'backup', ...args], { DATABASE_URL: `sqlite:${databaseFile}` });
}

interface Acknowledged {
  id: number;
  starts_at: string;
  sentAt: number;
  ackedAt: number;
}

describe('backup', () => {
  it('copies a database under write load: every booking acknowledged before it is in the copy, whole', async () => {
    const live = join(dir, 'live.sqlite');
    const server = await startServer(`sqlite:${live}`);
    const fixture = await makeFixture(server.url);
    const acked: Acknowledged[] = [];
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const window = distinctWindow();
        const sentAt = performance.now();
        const res = await fetch(`${server.url}/api/v1/booking/bookings/request/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.customerToken}` },
          body: JSON.stringify({ equipment_item_id: fixture.listingId, ...window }),
        });
        const body = (await res.json()) as { id: number };
        if (res.status !== 201) throw new Error(`booking: ${res.status} ${JSON.stringify(body)}`);
        acked.push({ id: body.id, starts_at: window.starts_at, sentAt, ackedAt: performance.now() });
      }
    };
    const load = Array.from({ length: WORKERS }, worker);
    while (acked.length < 100) await new Promise((r) => setTimeout(r, 20));

    const file = join(dir, 'copy.sqlite');
    const began = performance.now();
    const before = acked.filter((a) => a.ackedAt < began);
    const result = await backup(live, file);
    const ended = performance.now();
    // the load goes on a little after the copy, then stops
    const afterEnd = () => acked.filter((a) => a.sentAt > ended).length;
    while (afterEnd() < WORKERS) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await Promise.all(load);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { size } = statSync(file);
    const pages = size / 4096;
    expect(result.stdout).toBe(`backup written: ${file} (${pages} pages, ${size} bytes)\n`);
    const during = acked.filter((a) => a.ackedAt > began && a.ackedAt < ended);
    expect(during.length, 'bookings acknowledged while the backup ran').toBeGreaterThan(0);

    // the copy as it is: whole, no orphans, every booking acknowledged before the backup began
    const copy = createDb(`sqlite:${file}`);
    try {
      expect(await integrityProblems(copy.db, 'sqlite')).toEqual([]);
      const ids = new Set((await copy.db.selectFrom('bookings').select('id').execute()).map((b) => b.id));
      expect(before.filter((a) => !ids.has(a.id))).toEqual([]);
      // a point in time: nothing requested after the backup had ended is in it
      expect(acked.filter((a) => a.sentAt > ended && ids.has(a.id))).toEqual([]);
    } finally {
      await copy.close();
    }

    // restored: a fresh server on the copy serves those bookings
    server.child.kill('SIGTERM');
    await server.exited;
    const restored = await startServer(`sqlite:${file}`);
    const served = await Promise.all(
      before.map(async (a) => {
        const res = await fetch(`${restored.url}/api/v1/booking/bookings/${a.id}/`, {
          headers: { authorization: `Bearer ${fixture.customerToken}` },
        });
        const body = (await res.json()) as { starts_at?: string };
        return { id: a.id, status: res.status, starts_at: body.starts_at };
      }),
    );
    expect(served).toEqual(before.map((a) => ({ id: a.id, status: 200, starts_at: a.starts_at })));
  }, 120_000);

  it('refuses to overwrite a file unless --force, and writes a copy that opens', async () => {
    const source = join(dir, 'small.sqlite');
    const seed = new SQLite(source);
    seed.exec("create table notes (text text); insert into notes values ('kept')");
    seed.close();
    const file = join(dir, 'small-copy.sqlite');
    expect((await backup(source, file)).code).toBe(0);
    const first = readFileSync(file);

    const refused = await backup(source, file);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `backup: ${file} already exists (--force overwrites it)\n`,
    });
    expect(readFileSync(file).equals(first)).toBe(true);

    const forced = await backup(source, file, '--force');
    expect(forced.code).toBe(0);
    const copy = new SQLite(file, { readonly: true });
    expect(copy.prepare('select text from notes').all()).toEqual([{ text: 'kept' }]);
    copy.close();
  });

  it('refuses PostgreSQL, memory and a missing file or directory in one line', async () => {
    const target = join(dir, 'never.sqlite');
    const pgResult = await runNode([CLI, 'backup', target], {
      DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/app',
    });
    expect(pgResult).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'backup: DATABASE_URL is PostgreSQL: back it up with pg_dump (logical) or pg_basebackup (physical)\n',
    });
    const memory = await runNode([CLI, 'backup', target], { DATABASE_URL: 'sqlite::memory:' });
    expect(memory).toMatchObject({
      code: 2,
      stderr: 'backup: DATABASE_URL is sqlite::memory:, which has no file to copy\n',
    });
    const noArgument = await backup(join(dir, 'small.sqlite'));
    expect(noArgument).toMatchObject({
      code: 2,
      stderr: 'backup: missing argument (usage: npm run cli -- backup <file> [--force])\n',
    });
    const typo = join(dir, 'typo.sqlite');
    expect(await backup(typo, target)).toMatchObject({
      code: 1,
      stderr: `backup: no SQLite database at ${typo} (DATABASE_URL)\n`,
    });
    expect(await backup(join(dir, 'small.sqlite'), join(dir, 'no-dir', 'x.sqlite'))).toMatchObject({
      code: 1,
      stderr: `backup: the directory of ${join(dir, 'no-dir', 'x.sqlite')} does not exist\n`,
    });
    expect(existsSync(target) || existsSync(typo)).toBe(false);
  });
});
