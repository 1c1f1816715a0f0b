import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDb, type DbHandle } from './db/create-db.ts';
import { migrateToLatest } from './db/migrate.ts';
import { chooseLogFormat, logDestination } from './http/logging.ts';
import { systemClock } from './lib/clock.ts';
import { describeStartupError } from './lib/startup-errors.ts';
import { MockGateway, reconcilePendingRefunds } from './modules/payments/index.ts';

function loadConfigOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

const config = loadConfigOrExit();
const { app, handle, gateway } = await startOrExit();

/**
 * Opens the database, migrates, builds the app and listens; any failure is one line naming its cause and
 * exit status 1 (decisions §18), with the stack only at LOG_LEVEL debug or trace.
 */
async function startOrExit() {
  let handle: DbHandle | undefined;
  let app: FastifyInstance | undefined;
  try {
    handle = createDb(config.databaseUrl, {
      backgroundCheckpoints: true,
      preparedStatements: config.pgPreparedStatements,
      poolSize: config.pgPoolSize,
      // the check costs a lookup per query; outside production it turns a group-commit deadlock into an error
      guardGroupCommitUnits: config.nodeEnv !== 'production',
    });
    // an unreachable database stops the start even when nothing else would query it yet
    await sql`select 1`.execute(handle.db);
    if (config.migrateOnStart) await migrateToLatest(handle.db);
    const gateway = new MockGateway(config.paymentWebhookSecret);
    const format = chooseLogFormat({ ...config, stdoutIsTTY: process.stdout.isTTY === true });
    app = await buildApp(config, {
      db: handle.db,
      poolStats: handle.poolStats,
      gateway,
      logDestination: logDestination(format),
    });
    const opened = handle;
    app.addHook('onClose', () => opened.close());
    stopOnSignals(app);
    await app.listen({ port: config.port, host: config.host });
    return { app, handle, gateway };
  } catch (error) {
    console.error(`Cannot start: ${describeStartupError(error, config)}`);
    if (config.logLevel === 'debug' || config.logLevel === 'trace') console.error(error);
    await (app ? app.close() : handle?.close())?.catch(() => {});
    process.exit(1);
  }
}

if (!config.paymentWebhookSecret) {
  app.log.warn(
    'PAYMENT_WEBHOOK_SECRET is not set: unsigned payment webhooks are accepted (development only)',
  );
}

if (config.nodeEnv === 'production' && !config.smtpUrl) {
  app.log.warn(`SMTP_URL is not set: mail is written as files under ${config.mailDir}, not sent`);
}

/**
 * SIGTERM and SIGINT drain and close the app. Installed before it listens: a signal that arrives as soon
 * as it does (an orchestrator's, a test's) still gets a graceful stop, with the compile cache flushed.
 */
function stopOnSignals(app: FastifyInstance): void {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      // Keep accepting for a moment (readyz says 503, so load balancers stop sending): connections clients
      // opened before the signal but the server had not accepted yet would be reset by closing at once.
      app.shuttingDown = true;
      setTimeout(() => {
        app.close().then(
          () => process.exit(0),
          (error) => {
            app.log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      }, config.shutdownDrainMs);
    });
  }
}

// Refunds a crash left between the gateway call and the record of its outcome: asked again with the same
// idempotency key, so the gateway answers the refund it made instead of making another (refunds.service.ts).
reconcilePendingRefunds({ db: handle.db, clock: systemClock, gateway }).then(
  (count) => {
    if (count > 0) app.log.info({ count }, 'pending refunds reconciled');
  },
  (error) => app.log.error({ err: error }, 'reconciling pending refunds failed'),
);
