import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { createDb, type DbHandle } from './db/create-db.ts';
import { migrateDown, migrateToLatest } from './db/migrate.ts';
import { BackupRefused, backupSqlite } from './db/sqlite-backup.ts';
import { AppError } from './http/errors.ts';
import { systemClock } from './lib/clock.ts';
import { describeStartupError } from './lib/startup-errors.ts';
import { createStaff } from './modules/accounts/index.ts';
import { expireLapsedBookings } from './modules/booking/index.ts';
import { findMail, listMail } from './modules/notifications/index.ts';
import { type GatewayOutcome, OUTCOME_EVENTS } from './modules/payments/index.ts';
import { tableProgress } from './tools/progress.ts';
import { benchDataPresent, checkSeedSizes, SEED_DEFAULTS, seedBench } from './tools/seed-bench.ts';
import { simulatePayment } from './tools/simulate-payment.ts';

// The command line. Exit status: 0 done; 1 failed (the database, the server or the data said no); 2 the
// command line was wrong (unknown command or option, a missing or invalid argument). An expected failure is
// one line on stderr; --verbose (or LOG_LEVEL=debug) adds the stack of an unexpected one.

const CLI = 'npm run cli --';

/** The command line is wrong: exit status 2, the message as the one line. */
class UsageError extends Error {}

interface Invocation {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  config: Config;
  /** the database of DATABASE_URL, opened on first use and closed when the command ends */
  db(): DbHandle;
}

interface Command {
  name: string;
  /** what follows the name in the usage line */
  synopsis?: string;
  summary: string;
  options?: ParseArgsOptionsConfig;
  /** how many positional arguments it takes: [least, most] */
  positionals?: [number, number];
  run(invocation: Invocation): Promise<number>;
}

const string = { type: 'string' } as const;

/** Every command: the usage is written from this table, and dispatch reads it, so neither can drift. */
const COMMANDS: Command[] = [
  {
    name: 'migrate',
    summary: 'apply pending migrations to DATABASE_URL',
    async run({ db }) {
      for (const line of await migrateToLatest(db().db)) console.log(line);
      console.log('migrations: up to date');
      return 0;
    },
  },
  {
    name: 'migrate-down',
    summary: 'revert the latest migration',
    async run({ db }) {
      for (const line of await migrateDown(db().db)) console.log(line);
      return 0;
    },
  },
  {
    name: 'create-admin',
    synopsis: '--email E --password P',
    summary: 'create a staff account (manages categories); the API rules for an email and a password apply',
    options: { email: string, password: string },
    async run({ values, db }) {
      const email = requireOption(values, 'email');
      const password = requireOption(values, 'password');
      const handle = db();
      await migrateToLatest(handle.db);
      const user = await createStaff({ db: handle.db, clock: systemClock }, { email, password });
      console.log(`staff account ${user.email} created (id ${user.id})`);
      return 0;
    },
  },
  {
    name: 'expire-holds',
    summary:
      'record every booking whose hold has lapsed as expired now\n' +
      '(what each server process does every EXPIRY_SWEEP_INTERVAL_MS)',
    async run({ db }) {
      const expired = await expireLapsedBookings({ db: db().db, clock: systemClock });
      console.log(`expired bookings recorded: ${expired}`);
      return 0;
    },
  },
  {
    name: 'simulate-payment',
    synopsis: `<payment id> --outcome ${Object.keys(OUTCOME_EVENTS).join('|')} [--url URL]`,
    summary:
      "send the gateway's webhook for a payment to a running server (--url, else API_URL, else\n" +
      'http://HOST:PORT), signed with PAYMENT_WEBHOOK_SECRET when it is set',
    options: { outcome: string, url: string },
    positionals: [1, 1],
    async run({ values, positionals, config, db }) {
      const paymentId = Number(positionals[0]);
      if (!Number.isSafeInteger(paymentId) || paymentId < 1)
        throw new UsageError(`the payment id must be a positive integer, got "${positionals[0]}"`);
      const outcome = requireOption(values, 'outcome') as GatewayOutcome;
      if (!Object.hasOwn(OUTCOME_EVENTS, outcome))
        throw new UsageError(
          `--outcome must be one of ${Object.keys(OUTCOME_EVENTS).join(', ')}, got "${outcome}"`,
        );
      const baseUrl = typeof values.url === 'string' ? httpUrl(values.url) : config.apiUrl;
      const result = await simulatePayment(db().db, {
        paymentId,
        outcome,
        baseUrl,
        secret: config.paymentWebhookSecret,
      });
      if (result.status !== 200) {
        console.error(
          `simulate-payment: the server answered ${result.status} ${JSON.stringify(result.body)}`,
        );
        return 1;
      }
      console.log(`${result.status} ${JSON.stringify(result.body)}`);
      return 0;
    },
  },
  {
    name: 'backup',
    synopsis: '<file> [--force]',
    summary:
      'copy the SQLite database of DATABASE_URL into <file> while servers run on it (consistent, online);\n' +
      'an existing <file> only with --force. PostgreSQL: use pg_dump or pg_basebackup instead',
    options: { force: { type: 'boolean' } },
    positionals: [1, 1],
    async run({ values, positionals, config }) {
      if (!config.databaseUrl.startsWith('sqlite:'))
        throw new UsageError(
          'DATABASE_URL is PostgreSQL: back it up with pg_dump (logical) or pg_basebackup (physical)',
        );
      const source = config.databaseUrl.slice('sqlite:'.length);
      if (source === ':memory:')
        throw new UsageError('DATABASE_URL is sqlite::memory:, which has no file to copy');
      const result = await backupSqlite(source, positionals[0], { force: values.force === true });
      console.log(`backup written: ${result.file} (${result.pages} pages, ${result.bytes} bytes)`);
      return 0;
    },
  },
  {
    name: 'mail',
    synopsis: 'list | show <file name or number>',
    summary:
      'the messages written under MAIL_DIR (no SMTP_URL), newest first; or one of them (1 = the newest)',
    positionals: [1, 2],
    run: ({ positionals, config }) => mailCommand(config.mailDir, positionals),
  },
  {
    name: 'seed-bench',
    synopsis: Object.entries(SEED_DEFAULTS)
      .map(([name, size]) => `[--${name} ${size}]`)
      .join(' '),
    summary: "fill the database with the benchmark's data set",
    options: Object.fromEntries(Object.keys(SEED_DEFAULTS).map((name) => [name, string])),
    async run({ values, db }) {
      const sizes = Object.fromEntries(
        Object.entries(SEED_DEFAULTS).map(([name, fallback]) => {
          const raw = values[name];
          return [name, typeof raw === 'string' ? (/^\d+$/.test(raw) ? Number(raw) : -1) : fallback];
        }),
      ) as typeof SEED_DEFAULTS;
      const problems = checkSeedSizes(sizes);
      if (problems.length) throw new UsageError(problems.join('; '));
      const handle = db();
      await migrateToLatest(handle.db);
      if (await benchDataPresent(handle.db)) {
        console.error('seed-bench: the database already holds the bench data (bench-vendor@example.com)');
        return 1;
      }
      console.log(`seed-bench: ${JSON.stringify(sizes)}`);
      const bars = await tableProgress(process.stderr);
      const result = await seedBench(handle.db, sizes, {
        now: systemClock.now().getTime(),
        log: (line) => (bars ? bars.log(`  ${line}`) : console.log(`  ${line}`)),
        progress: bars?.update,
      }).finally(() => bars?.stop());
      console.log(
        `seed-bench: done in ${(result.timings.total / 1000).toFixed(1)} s ${JSON.stringify(result.rows)}`,
      );
      return 0;
    },
  },
];

/** Options every command takes. */
const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean' },
} as const satisfies ParseArgsOptionsConfig;

const indent = (text: string, by: number) => text.replaceAll('\n', `\n${' '.repeat(by)}`);

function commandLine(command: Command): string {
  return [command.name, command.synopsis].filter(Boolean).join(' ');
}

const USAGE = [
  `Usage: ${CLI} <command> [options]`,
  '',
  'Commands:',
  ...COMMANDS.map((c) => `  ${commandLine(c)}\n      ${indent(c.summary, 6)}`),
  '',
  'Every command takes --help (its usage) and --verbose (the stack of an unexpected error).',
  'Exit status: 0 done, 1 failed, 2 wrong command line.',
].join('\n');

function commandUsage(command: Command): string {
  return `Usage: ${CLI} ${commandLine(command)}\n\n${command.summary}`;
}

function requireOption(values: Invocation['values'], name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`missing --${name}`);
  return value;
}

function httpUrl(raw: string): string {
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(
      `--url must be the server's http(s) URL, such as http://127.0.0.1:8000, got "${raw}"`,
    );
  return raw.replace(/\/+$/, '');
}

function parse(command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...command.options, ...COMMON_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // node's own wording up to its first full stop: "Unknown option '--x'", "Option '--url <value>' argument missing"
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(`${(error as Error).message.split('. ')[0]} (see ${CLI} ${command.name} --help)`);
    throw error;
  }
}

function checkPositionals(command: Command, positionals: string[]): void {
  const [least, most] = command.positionals ?? [0, 0];
  if (positionals.length < least)
    throw new UsageError(`missing argument (usage: ${CLI} ${commandLine(command)})`);
  if (positionals.length > most)
    throw new UsageError(`unexpected argument "${positionals[most]}" (see ${CLI} ${command.name} --help)`);
}

/** The one line (and exit status) of a failure; the stack too when asked for. */
function report(error: unknown, command: Command, config: Config | undefined, verbose: boolean): number {
  const prefix = `${command.name}: `;
  if (error instanceof UsageError) {
    console.error(prefix + error.message);
    return 2;
  }
  if (error instanceof BackupRefused) {
    console.error(prefix + error.message);
    return 1;
  }
  if (error instanceof ConfigError) {
    console.error(`Invalid configuration: ${error.message}`);
    return 1;
  }
  if (error instanceof AppError) {
    const fields = Object.entries(error.errors ?? {}).map(
      ([field, messages]) => `${field}: ${messages.join(' ')}`,
    );
    console.error(prefix + [error.message, ...fields].join(' '));
    // input the API too would refuse (400) is a wrong command line; anything else is a failure
    return error.code === 'invalid' ? 2 : 1;
  }
  const context = config ?? { host: '', port: 0, databaseUrl: '' };
  console.error(prefix + describeStartupError(error, context));
  if (verbose) console.error(error);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    console.error(USAGE);
    return 2;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    if (rest[0] === undefined) {
      console.log(USAGE);
      return 0;
    }
    const topic = COMMANDS.find((c) => c.name === rest[0]);
    if (!topic) return unknownCommand(rest[0]);
    console.log(commandUsage(topic));
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return unknownCommand(name);
  let config: Config | undefined;
  let handle: DbHandle | undefined;
  let verbose = rest.includes('--verbose');
  try {
    const { values, positionals } = parse(command, rest);
    if (values.help) {
      console.log(commandUsage(command));
      return 0;
    }
    checkPositionals(command, positionals);
    const loaded = loadConfig();
    config = loaded;
    verbose ||= loaded.logLevel === 'debug' || loaded.logLevel === 'trace';
    return await command.run({
      values,
      positionals,
      config: loaded,
      db: () => {
        handle ??= createDb(loaded.databaseUrl);
        return handle;
      },
    });
  } catch (error) {
    return report(error, command, config, verbose);
  } finally {
    await handle?.close();
  }
}

function unknownCommand(name: string): number {
  console.error(`unknown command: ${name}`);
  console.error(`Run "${CLI} --help" for the list of commands.`);
  return 2;
}

async function mailCommand(dir: string, [subcommand, target]: string[]): Promise<number> {
  if (subcommand === 'list' && target === undefined) {
    const messages = await listMail(dir);
    if (!messages.length) console.log(`no mail in ${dir}`);
    messages.forEach((m, i) => {
      console.log(
        [String(i + 1).padStart(3), m.date?.toISOString() ?? '-', m.to, m.subject, m.file].join('  '),
      );
    });
    return 0;
  }
  if (subcommand === 'show' && target) {
    const message = await findMail(dir, target);
    if (!message) {
      console.error(`mail show: no message ${target} in ${dir}`);
      return 1;
    }
    console.log(`File: ${message.file}`);
    console.log(`Date: ${message.date?.toISOString() ?? '-'}`);
    console.log(`From: ${message.from}`);
    console.log(`To: ${message.to}`);
    console.log(`Subject: ${message.subject}`);
    console.log(`Message-ID: ${message.messageId}`);
    console.log('');
    console.log(message.text);
    return 0;
  }
  throw new UsageError(`usage: ${CLI} mail list | show <file name or number>`);
}

process.exitCode = await main(process.argv.slice(2));
