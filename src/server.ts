import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDb } from './db/create-db.ts';
import { migrateToLatest } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';
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
const handle = createDb(config.databaseUrl, {
  backgroundCheckpoints: true,
  preparedStatements: config.pgPreparedStatements,
  poolSize: config.pgPoolSize,
  // the check costs a lookup per query; outside production it turns a group-commit deadlock into an error
  guardGroupCommitUnits: config.nodeEnv !== 'production',
});
if (config.migrateOnStart) await migrateToLatest(handle.db);
const gateway = new MockGateway(config.paymentWebhookSecret);
const app = await buildApp(config, { db: handle.db, poolStats: handle.poolStats, gateway });
app.addHook('onClose', () => handle.close());

if (!config.paymentWebhookSecret) {
  app.log.warn(
    'PAYMENT_WEBHOOK_SECRET is not set: unsigned payment webhooks are accepted (development only)',
  );
}

if (config.nodeEnv === 'production' && !config.smtpUrl) {
  app.log.warn(`SMTP_URL is not set: mail is written as files under ${config.mailDir}, not sent`);
}

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

await app.listen({ port: config.port, host: config.host });

// Refunds a crash left between the gateway call and the record of its outcome: asked again with the same
// idempotency key, so the gateway answers the refund it made instead of making another (refunds.service.ts).
reconcilePendingRefunds({ db: handle.db, clock: systemClock, gateway }).then(
  (count) => {
    if (count > 0) app.log.info({ count }, 'pending refunds reconciled');
  },
  (error) => app.log.error({ err: error }, 'reconciling pending refunds failed'),
);
