import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';

// The server checkpoints SQLite's WAL from a thread of its own (createDb's backgroundCheckpoints): what
// it commits reaches the database file itself within moments, without a commit of its own doing it.

const dir = mkdtempSync(join(tmpdir(), 'waterbook-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The rows of `notes` in the database file alone, as a copy without its WAL sees them. */
function rowsInMainFile(file: string): number {
  const copy = `${file}.copy-${Math.random().toString(36).slice(2)}`;
  copyFileSync(file, copy);
  const database = new SQLite(copy, { readonly: true });
  try {
    const table = database.prepare("select 1 from sqlite_master where name = 'notes'").get();
    return table ? (database.prepare('select count(*) as n from notes').get() as { n: number }).n : 0;
  } finally {
    database.close();
    rmSync(copy, { force: true });
  }
}

async function writeNotes(handle: DbHandle, count: number): Promise<void> {
  await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
  for (let i = 0; i < count; i++)
    await sql`insert into notes (body) values (${`note ${i}`})`.execute(handle.db);
}

async function eventually(read: () => number, expected: number, timeoutMs = 3_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = read();
  }
  return value;
}

describe('background WAL checkpoints', () => {
  it('bring committed rows into the database file without a commit checkpointing', async () => {
    const file = join(dir, 'background.sqlite');
    const handle = createDb(`sqlite:${file}`, { backgroundCheckpoints: true });
    try {
      await writeNotes(handle, 40); // far below the 10,000 pages at which a commit would checkpoint
      expect(await eventually(() => rowsInMainFile(file), 40)).toBe(40);
      await sql`insert into notes (body) values ('one more')`.execute(handle.db);
      expect(await eventually(() => rowsInMainFile(file), 41)).toBe(41);
    } finally {
      await handle.close(); // stops the thread: a thread left running would keep this test file alive
    }
  });

  it('are not what inline checkpoints do: the same writes stay in the WAL without the thread', async () => {
    const file = join(dir, 'inline.sqlite');
    const handle = createDb(`sqlite:${file}`);
    try {
      await writeNotes(handle, 40); // below SQLite's own 1,000 pages
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(rowsInMainFile(file)).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
