// The only reader of process.env: every setting is parsed and checked once, at start.

import { resolve } from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'json' | 'pretty';

export interface RateLimit {
  max: number;
  /** window in milliseconds */
  windowMs: number;
}

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string | null;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  paymentWebhookSecret: string | null;
  logLevel: LogLevel;
  /** LOG_FORMAT; null: decided by where stdout goes (see chooseLogFormat in http/logging.ts) */
  logFormat: LogFormat | null;
  corsOrigins: string[];
  trustProxy: boolean | string | number;
  migrateOnStart: boolean;
  /** PostgreSQL: run the hot statements as named prepared statements (off behind PgBouncer < 1.21) */
  pgPreparedStatements: boolean;
  /** PostgreSQL: the most connections this process opens (instances × this must fit max_connections) */
  pgPoolSize: number;
  /** after SIGTERM/SIGINT: how long to keep serving (readyz 503) before closing the listener */
  shutdownDrainMs: number;
  /**
   * How often each server process records lapsed booking holds as expired (0: never; reads and checks
   * do not depend on it). Bounded by the minute within which decisions §11 wants them recorded.
   */
  expirySweepIntervalMs: number;
  rateLimits: { login: RateLimit; refresh: RateLimit; register: RateLimit };
  /** the directory of uploaded media (listing photos), created at start when missing */
  mediaDir: string;
  /**
   * POST /payment/{id}/mock-checkout/ plays the mock gateway for the web app's Pay button (decisions §18):
   * on by default, off when NODE_ENV=production unless MOCK_CHECKOUT says otherwise.
   */
  mockCheckout: boolean;
  /**
   * How often each server process's outbox worker looks for events to fan out and deliveries due
   * (0: this process delivers nothing; the events wait in the database for a process that does).
   */
  notificationPollIntervalMs: number;
  /** how long a claimed delivery attempt is held before another process may try it again (after a crash) */
  notificationClaimTimeoutMs: number;
  /** seconds before each retry of a failed delivery; one failure more than its length fails it for good */
  webhookRetrySchedule: number[];
  /** the mail server (`smtp://` or `smtps://user:pass@host:port`); null: each message is a file in mailDir */
  smtpUrl: string | null;
  /** the From of every message: an address, or a name and <address> */
  mailFrom: string;
  /** where messages are written as .eml files when there is no SMTP_URL, created when missing */
  mailDir: string;
  /** the web app's origin (no trailing slash), for the links in mail */
  publicUrl: string;
  /**
   * Webhook endpoints may be (and resolve to) loopback, private, link-local and other non-public addresses
   * (decisions §14): for development and tests with a local receiver; never in production.
   */
  webhookAllowPrivateUrls: boolean;
  /** the running server the command line talks to (simulate-payment): API_URL, else http://HOST:PORT */
  apiUrl: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function fail(name: string, message: string): never {
  throw new ConfigError(`${name}: ${message}`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) fail(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) fail(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  fail(name, `must be true or false, got "${raw}"`);
}

function secret(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  if (raw.length < 16) fail(name, 'must be at least 16 characters long');
  return raw;
}

/**
 * The default database's directory, created when missing; any other SQLite directory must exist, so that a
 * typo in DATABASE_URL is an error instead of a new, empty database (decisions §18).
 */
export const DEFAULT_SQLITE_DIR = './data';
const DEFAULT_DATABASE_URL = `sqlite:${DEFAULT_SQLITE_DIR}/app.sqlite`;

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length) return raw;
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
      return raw;
    } catch {
      fail('DATABASE_URL', 'is not a valid postgres:// URL');
    }
  }
  fail(
    'DATABASE_URL',
    'must be sqlite:<path>, sqlite::memory: or postgres://user:password@host:port/database',
  );
}

function trustProxy(env: Env): boolean | string | number {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return false;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw); // number of hops
  return raw; // comma-separated addresses or CIDR ranges, as Fastify takes them
}

/** Comma-separated whole seconds, e.g. "5,300,1800". */
function secondsList(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const parts = raw.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d+$/.test(p) && Number(p) <= 7 * 24 * 3600))
    fail(name, `must be comma-separated whole seconds of at most a week each, got "${raw}"`);
  return parts.map(Number);
}

function smtpUrl(env: Env): string | null {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return null;
  // the message never repeats the value: it may hold the mail server's password
  const expected = 'must be smtp://host:port or smtps://user:password@host:port';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('SMTP_URL', expected);
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) fail('SMTP_URL', expected);
  return raw;
}

// local@domain, or Name <local@domain>; no line breaks, as the value becomes a header of every message
const MAIL_FROM = /^(?:[^\s<>@"]+@[^\s<>@"]+|[^<>\r\n]*<[^\s<>@"]+@[^\s<>@"]+>)$/;

function mailFrom(env: Env): string {
  const raw = env.MAIL_FROM?.trim() || 'Waterbook <no-reply@localhost>';
  if (!MAIL_FROM.test(raw)) fail('MAIL_FROM', `must be an address or Name <address>, got "${raw}"`);
  return raw;
}

function publicUrl(env: Env, port: number): string {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return `http://localhost:${port}`;
  const expected = `must be the web app's origin, such as https://book.example, got "${raw}"`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('PUBLIC_URL', expected);
  }
  const plainOrigin = !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !plainOrigin) fail('PUBLIC_URL', expected);
  return url.origin;
}

function logFormat(env: Env): LogFormat | null {
  const raw = env.LOG_FORMAT?.trim().toLowerCase();
  if (!raw) return null;
  if (raw !== 'json' && raw !== 'pretty') fail('LOG_FORMAT', `must be json or pretty, got "${raw}"`);
  return raw;
}

function apiUrl(env: Env, host: string, port: number): string {
  const raw = env.API_URL?.trim();
  if (!raw) return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const expected = `must be the server's http(s) URL, such as http://127.0.0.1:8000, got "${raw}"`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('API_URL', expected);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('API_URL', expected);
  return raw.replace(/\/+$/, '');
}

function rateLimit(env: Env, name: string, fallback: number): RateLimit {
  return { max: integer(env, name, fallback, 1, 1_000_000), windowMs: 60_000 };
}

export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin === '*') continue;
    try {
      new URL(origin);
    } catch {
      fail('CORS_ORIGINS', `"${origin}" is not an origin such as https://shop.example`);
    }
  }
  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  const port = integer(env, 'PORT', 8000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const config: Config = {
    nodeEnv,
    port,
    host,
    databaseUrl: databaseUrl(env),
    jwtSecret: secret(env, 'JWT_SECRET'),
    accessTokenTtl: integer(env, 'ACCESS_TOKEN_TTL', 15 * 60, 1, 365 * 24 * 3600),
    refreshTokenTtl: integer(env, 'REFRESH_TOKEN_TTL', 7 * 24 * 3600, 1, 365 * 24 * 3600),
    paymentWebhookSecret: secret(env, 'PAYMENT_WEBHOOK_SECRET'),
    logLevel,
    logFormat: logFormat(env),
    corsOrigins,
    trustProxy: trustProxy(env),
    migrateOnStart: boolean(env, 'MIGRATE_ON_START', true),
    pgPreparedStatements: boolean(env, 'PG_PREPARED_STATEMENTS', true),
    pgPoolSize: integer(env, 'PG_POOL_SIZE', 10, 1, 1000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 500, 0, 60_000),
    expirySweepIntervalMs: integer(env, 'EXPIRY_SWEEP_INTERVAL_MS', 15_000, 0, 60_000),
    rateLimits: {
      login: rateLimit(env, 'RATE_LIMIT_LOGIN', 10),
      refresh: rateLimit(env, 'RATE_LIMIT_REFRESH', 10),
      register: rateLimit(env, 'RATE_LIMIT_REGISTER', 5),
    },
    mediaDir: resolve(env.MEDIA_DIR?.trim() || './data/media'),
    mockCheckout: boolean(env, 'MOCK_CHECKOUT', nodeEnv !== 'production'),
    notificationPollIntervalMs: integer(env, 'NOTIFICATION_POLL_INTERVAL_MS', 1000, 0, 60_000),
    // above the webhook's 10-second timeout, so a claim never runs out while its send can still succeed
    notificationClaimTimeoutMs: integer(env, 'NOTIFICATION_CLAIM_TIMEOUT_MS', 60_000, 1000, 3_600_000),
    webhookRetrySchedule: secondsList(
      env,
      'WEBHOOK_RETRY_SCHEDULE',
      [5, 300, 1800, 7200, 18000, 36000, 36000],
    ),
    smtpUrl: smtpUrl(env),
    mailFrom: mailFrom(env),
    mailDir: resolve(env.MAIL_DIR?.trim() || './data/mail'),
    publicUrl: publicUrl(env, port),
    webhookAllowPrivateUrls: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    apiUrl: apiUrl(env, host, port),
  };
  if (config.nodeEnv === 'production' && !config.paymentWebhookSecret) {
    fail('PAYMENT_WEBHOOK_SECRET', 'is required when NODE_ENV=production');
  }
  return Object.freeze(config);
}
