import SQLite from 'better-sqlite3';

// Holds SQLite's write lock on a database file for a while, as another process would (a backup, a
// migration, a second server on the same file): node test/reliability/sqlite-locker.ts <file> <ms>.

const [file, holdMs] = process.argv.slice(2);
const db = new SQLite(file);
db.exec('begin immediate');
process.stdout.write('locked\n');
setTimeout(() => {
  db.exec('commit');
  db.close();
}, Number(holdMs));
