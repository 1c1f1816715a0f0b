import { existsSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  /** the backup's absolute path */
  file: string;
  bytes: number;
  pages: number;
}

/**
 * A backup the command line refuses to take (no such database, no such directory, a file in the way). Its own
 * class: the database layer knows nothing of the HTTP errors, and the command line reports it as a failure.
 */
export class BackupRefused extends Error {}

/** More pages than any database holds: the whole copy in one step of SQLite's backup. */
const EVERY_PAGE = 0x7fffffff;

/**
 * An online, consistent copy of a SQLite database file, taken with SQLite's backup API while servers go on
 * reading and writing it (WAL: the copy reads one snapshot and blocks no writer). The copy is made in one
 * step: SQLite restarts a backup that another connection writes to between steps, so under a steady write
 * load a copy in small steps might never finish. Refuses to overwrite a file unless `force`.
 */
export async function backupSqlite(
  source: string,
  destination: string,
  options: { force?: boolean } = {},
): Promise<BackupResult> {
  const file = resolve(destination);
  if (!existsSync(dirname(file))) throw new BackupRefused(`the directory of ${file} does not exist`);
  if (existsSync(file)) {
    if (!options.force) throw new BackupRefused(`${file} already exists (--force overwrites it)`);
    // a stale journal beside the old file would be applied to the new copy when it is opened
    for (const stale of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`])
      rmSync(stale, { force: true });
  }
  if (!existsSync(source)) throw new BackupRefused(`no SQLite database at ${resolve(source)} (DATABASE_URL)`);
  const database = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    const { totalPages } = await database.backup(file, { progress: () => EVERY_PAGE });
    return { file, bytes: statSync(file).size, pages: totalPages };
  } finally {
    database.close();
  }
}
