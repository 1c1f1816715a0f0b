import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import metrics from 'fastify-metrics';
import { type Kysely, sql } from 'kysely';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { PoolStats } from './db/create-db.ts';
import type { Database } from './db/database.ts';
import { registerAuth } from './http/auth.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerJsonBody } from './http/json-body.ts';
import { createLogging } from './http/logging.ts';
import { registerOpenApi, registerRouteConventions } from './http/openapi.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { validatorCompiler } from './http/validation.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { LocalDiskStorage } from './media/storage.ts';
import {
  accountsRoutes,
  authenticate,
  createAccountsDeps,
  issueInvitationToken,
  issuePasswordResetToken,
  loadSigningKey,
  teamRoutes,
  webSessionRoutes,
} from './modules/accounts/index.ts';
import {
  bookingRoutes,
  calendarFeedRoutes,
  calendarFileRoutes,
  checkLimitEdit,
  dayOfTripRoutes,
  departureRoutes,
  listingAvailableFilter,
  promoCodeRoutes,
  resourceRoutes,
  startExpirySweeper,
} from './modules/booking/index.ts';
import { ADVENTURE, catalogRoutes, createCatalogDeps } from './modules/catalog/index.ts';
import { channelRoutes } from './modules/channels/index.ts';
import { findClickForAttribution, marketingRoutes, recordListingClick } from './modules/marketing/index.ts';
import {
  createEmailChannel,
  createMailer,
  createOutboxWorker,
  createWebhookChannel,
  endpointsRoutes,
  type HostResolver,
  lookupHost,
  MAIL_RECIPIENTS,
  type OutboxWorker,
  registerOutboxMetrics,
} from './modules/notifications/index.ts';
import { octoRoutes } from './modules/octo/index.ts';
import {
  cancellationRefunds,
  latestPaymentStatuses,
  MockGateway,
  type PaymentGateway,
  paymentsRoutes,
} from './modules/payments/index.ts';
import { webRoutes } from './web/web.routes.ts';

export interface AppDeps {
  db: Kysely<Database>;
  clock?: Clock;
  /** connection-pool figures for /metrics (PostgreSQL) */
  poolStats?: () => PoolStats;
  gateway?: PaymentGateway;
  /** how webhook endpoints' host names are resolved for the SSRF check (tests inject one) */
  resolveHost?: HostResolver;
  /** where the logs go (server.ts: JSON or pretty, see chooseLogFormat); stdout as JSON by default */
  logDestination?: DestinationStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** set on SIGTERM/SIGINT (server.ts): /readyz answers 503 while in-flight and queued requests drain */
    shuttingDown: boolean;
    /** this process's outbox worker (tests run its passes themselves when its loop is off) */
    outbox: OutboxWorker;
  }
}

export const BODY_LIMIT = 1024 * 1024;

/** Builds the whole service on the given database; does not listen (tests call `inject`). */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const logging = createLogging(config.logLevel, deps.logDestination);

  const app = Fastify({
    loggerInstance: logging.logger,
    logController: logging.logController,
    childLoggerFactory: logging.childLoggerFactory,
    bodyLimit: BODY_LIMIT,
    // proxy-addr takes a hop count too, which Fastify's types leave out
    trustProxy: config.trustProxy as boolean | string,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    // No automatic HEAD twins: a HEAD on a listing detail would run the GET handler and record a click.
    exposeHeadRoutes: false,
    frameworkErrors,
    // Requests the server has already accepted are served during shutdown, not refused with a 503.
    return503OnClosing: false,
    ajv: { customOptions: { strict: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  registerRouteConventions(app);

  registerJsonBody(app);

  registerSecurityHeaders(app, { contentSecurityPolicy: false });
  // Without CORS_ORIGINS there is no CORS at all: no plugin, so no hook on every request either.
  if (config.corsOrigins.length) {
    await app.register(cors, {
      origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
      // a browser client reads only the response headers listed here: a replayed answer and a throttle's wait
      exposedHeaders: ['Idempotent-Replayed', 'Retry-After'],
    });
  }
  await registerRateLimit(app, { db, clock });
  await registerOpenApi(app);
  await registerMetrics(app, deps.poolStats);

  const keys = {
    key: await loadSigningKey(db, config.jwtSecret),
    accessTtl: config.accessTokenTtl,
    refreshTtl: config.refreshTokenTtl,
  };
  const accountsDeps = createAccountsDeps({ db, clock, keys });
  registerAuth(app, (token) => authenticate(accountsDeps, token));
  registerIdempotency(app, { db, clock });

  app.get('/healthz', { config: { auth: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.decorate('shuttingDown', false);
  app.get('/readyz', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    if (app.shuttingDown)
      return reply.status(503).send({ detail: 'Shutting down.', code: 'service_unavailable' });
    try {
      await sql`select 1`.execute(db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ detail: 'Database unavailable.', code: 'service_unavailable' });
    }
  });

  await app.register(accountsRoutes, {
    prefix: '/api/v1/accounts',
    deps: accountsDeps,
    rateLimits: config.rateLimits,
  });
  await app.register(teamRoutes, {
    prefix: '/api/v1/accounts',
    deps: accountsDeps,
    rateLimits: config.rateLimits,
  });
  await app.register(webSessionRoutes, {
    prefix: '/api/v1/accounts',
    deps: accountsDeps,
    rateLimits: config.rateLimits,
  });
  const media = new LocalDiskStorage(config.mediaDir);
  await media.prepare();
  await app.register(mediaRoutes, { prefix: LocalDiskStorage.URL_PREFIX, storage: media });
  const catalogDeps = createCatalogDeps({
    db,
    clock,
    media,
    recordClick: (click) => recordListingClick(db, clock, click),
    availableIn: (from, to, kind) => listingAvailableFilter(db, from, to, clock.now().getTime(), kind),
    checkLimitEdit,
  });
  const gateway = deps.gateway ?? new MockGateway(config.paymentWebhookSecret);
  const paymentsDeps = { db, clock, gateway };
  const bookingDeps = {
    db,
    clock,
    findClick: findClickForAttribution,
    listings: catalogDeps.lookups,
    refunds: cancellationRefunds(paymentsDeps),
  };
  await app.register(bookingRoutes, { prefix: '/api/v1/booking', deps: bookingDeps });
  await app.register(promoCodeRoutes, { prefix: '/api/v1/booking', deps: bookingDeps });
  await app.register(dayOfTripRoutes, {
    prefix: '/api/v1/booking',
    deps: { ...bookingDeps, paymentStatuses: latestPaymentStatuses },
  });
  await app.register(resourceRoutes, { prefix: '/api/v1/booking', deps: bookingDeps });
  const feedDeps = { db, clock, publicUrl: config.publicUrl };
  await app.register(calendarFeedRoutes, { prefix: '/api/v1/booking', deps: feedDeps });
  await app.register(calendarFileRoutes, { deps: feedDeps });
  for (const segment of [ADVENTURE.pathSegment, ...ADVENTURE.pathAliases])
    await app.register(departureRoutes, {
      prefix: `/api/v1/${segment}`,
      deps: bookingDeps,
      hidden: segment !== ADVENTURE.pathSegment,
    });
  await app.register(paymentsRoutes, {
    prefix: '/api/v1/payment',
    deps: paymentsDeps,
    mockCheckout: config.mockCheckout,
  });

  if (config.expirySweepIntervalMs > 0) {
    const sweeper = startExpirySweeper({ db, clock }, config.expirySweepIntervalMs, app.log);
    // before onClose, where the server's database handle is closed
    app.addHook('preClose', () => sweeper.stop());
  }

  await app.register(catalogRoutes, { prefix: '/api/v1', deps: catalogDeps });
  await app.register(marketingRoutes, {
    prefix: '/api/v1/marketing',
    deps: { db, clock, catalog: catalogDeps },
  });
  const resolveHost = deps.resolveHost ?? lookupHost;
  await app.register(endpointsRoutes, {
    prefix: '/api/v1/notifications',
    deps: { db, clock, allowPrivateUrls: config.webhookAllowPrivateUrls, resolveHost },
  });
  await app.register(channelRoutes, { prefix: '/api/v1', deps: { db, clock } });
  await app.register(octoRoutes, {
    prefix: '/octo/v1',
    deps: { db, clock, endpoint: `${config.publicUrl}/octo/v1`, booking: bookingDeps },
  });
  startOutbox(app, config, { db, clock, resolveHost });
  await app.register(webRoutes);

  return app;
}

/**
 * The outbox worker of this process (decisions §14), with its channels: webhooks and mail. Its loop runs
 * every NOTIFICATION_POLL_INTERVAL_MS (none at 0) and is stopped before the database handle is closed.
 */
function startOutbox(
  app: FastifyInstance,
  config: Config,
  deps: { db: Kysely<Database>; clock: Clock; resolveHost: HostResolver },
): void {
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    mailDir: config.mailDir,
    clock: deps.clock,
  });
  const outbox = createOutboxWorker({
    db: deps.db,
    clock: deps.clock,
    channels: {
      webhook: createWebhookChannel({
        allowPrivate: config.webhookAllowPrivateUrls,
        resolve: deps.resolveHost,
        clock: deps.clock,
      }),
      email: createEmailChannel({ mailer, publicUrl: config.publicUrl }),
    },
    mailRecipients: (type) => MAIL_RECIPIENTS[type],
    issueResetToken: issuePasswordResetToken,
    issueInvitationToken,
    retrySchedule: config.webhookRetrySchedule,
    claimTimeoutMs: config.notificationClaimTimeoutMs,
    onAttempt: registerOutboxMetrics(app, deps.db),
  });
  app.decorate('outbox', outbox);
  if (config.notificationPollIntervalMs > 0) outbox.start(config.notificationPollIntervalMs, app.log);
  app.addHook('preClose', async () => {
    await outbox.stop();
    mailer.close();
  });
}

/**
 * `http_request_duration_seconds` by method, route and status for the routes the service declares (not
 * 404s of unknown paths, nor HEAD/OPTIONS). Each label combination's histogram child is looked up by one
 * string key and fed Fastify's own elapsed time: no timer object and no label hashing per request.
 */
function registerRouteDurations(app: FastifyInstance): void {
  const durations = new app.metrics.client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request duration in seconds, by method, route and status',
    labelNames: ['method', 'route', 'status_code'],
  });
  const children = new Map<string, { observe(seconds: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      const key = `${request.method} ${reply.statusCode} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = durations.labels(request.method, route, String(reply.statusCode));
        children.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
    }
    done();
  });
}

/** Prometheus metrics at /metrics: process figures, request rate/latency/status by route, database pool. */
async function registerMetrics(app: FastifyInstance, poolStats: AppDeps['poolStats']): Promise<void> {
  // A CommonJS module whose plugin is its `default` export.
  await app.register(metrics.default, {
    // Tests build several apps in one process; each starts from an empty registry.
    clearRegisterOnInit: true,
    endpoint: {
      url: '/metrics',
      method: 'GET',
      config: { auth: 'public' },
      schema: { hide: true },
      logLevel: 'warn',
      handler: () => {},
    },
    // Route durations are recorded below instead: the plugin's own timers cost more per request.
    routeMetrics: { enabled: false },
  });
  registerRouteDurations(app);
  if (!poolStats) return;
  const { Gauge } = app.metrics.client;
  const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      collect() {
        this.set(read(poolStats()));
      },
    });
  gauge('db_pool_connections', 'Open database connections', (s) => s.total);
  gauge('db_pool_idle_connections', 'Idle database connections', (s) => s.idle);
  gauge('db_pool_waiting_requests', 'Queries waiting for a database connection', (s) => s.waiting);
}
