import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { createDb } from '../../../src/db/create-db.ts';
import { ManualClock } from '../../../src/lib/clock.ts';

// A second server on the same SQLite file, in a thread of its own: requests to it and to the test's own
// server really run at the same time, as with several instances of the service on one database file.
// Within one thread better-sqlite3 answers synchronously, so a handler would never yield between its
// check and its insert; here every query also waits a millisecond (as over a network), so that without
// the transaction's write lock the two servers' checks and inserts do interleave and double-book.

class SlowQueries implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    await sleep(1);
    return args.result;
  }
}

const { dbFile, jwtSecret, now } = workerData as { dbFile: string; jwtSecret: string; now: string };
const handle = createDb(`sqlite:${dbFile}`);
const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: jwtSecret }), {
  db: handle.db.withPlugin(new SlowQueries()),
  clock: new ManualClock(now),
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
parentPort!.postMessage(address);
parentPort!.on('message', async (message) => {
  if (message !== 'close') return;
  await app.close();
  await handle.close();
  parentPort!.postMessage('closed');
});
