import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { createDb } from './db/create-db.ts';
import { migrateDown, migrateToLatest } from './db/migrate.ts';
import { AppError } from './http/errors.ts';
import { systemClock } from './lib/clock.ts';
import { createStaff } from './modules/accounts/index.ts';
import { expireLapsedBookings } from './modules/booking/index.ts';
import { findMail, listMail } from './modules/notifications/index.ts';
import { type GatewayOutcome, OUTCOME_EVENTS } from './modules/payments/index.ts';
import { benchDataPresent, checkSeedSizes, SEED_DEFAULTS, seedBench } from './tools/seed-bench.ts';
import { simulatePayment } from './tools/simulate-payment.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending migrations to DATABASE_URL
  migrate-down                              revert the latest migration
  create-admin --email E --password P       create a staff account (manages categories)
  expire-holds                              record every booking whose hold has lapsed as expired now
                                            (what each server process does every EXPIRY_SWEEP_INTERVAL_MS)
  simulate-payment <payment id> --outcome succeeded|failed|processing|refunded [--url http://127.0.0.1:8000]
                                            send the gateway's webhook for a payment to a running server,
                                            signed with PAYMENT_WEBHOOK_SECRET when it is set
  mail list                                 the messages written under MAIL_DIR (no SMTP_URL), newest first
  mail show <file name or number>           one of them: its headers and its text (1 = the newest)
  seed-bench [--vendors 200 --items 20000 --adventures 20000 --clicks 1000000 --bookings 100000
              --customers 1000]             fill the database with the benchmark's data set
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      outcome: { type: 'string' },
      url: { type: 'string' },
      ...Object.fromEntries(Object.keys(SEED_DEFAULTS).map((name) => [name, { type: 'string' as const }])),
    },
    allowPositionals: true,
  });
  const handle = createDb(config.databaseUrl);
  try {
    switch (command) {
      case 'migrate':
        for (const line of await migrateToLatest(handle.db)) console.log(line);
        console.log('migrations: up to date');
        return 0;
      case 'migrate-down':
        for (const line of await migrateDown(handle.db)) console.log(line);
        return 0;
      case 'expire-holds':
        console.log(
          `expired bookings recorded: ${await expireLapsedBookings({ db: handle.db, clock: systemClock })}`,
        );
        return 0;
      case 'create-admin': {
        if (!values.email || !values.password) {
          console.error('create-admin needs --email and --password');
          return 2;
        }
        await migrateToLatest(handle.db);
        const user = await createStaff(
          { db: handle.db, clock: systemClock },
          { email: values.email, password: values.password },
        );
        console.log(`staff account ${user.email} created (id ${user.id})`);
        return 0;
      }
      case 'simulate-payment': {
        const paymentId = Number(positionals[0]);
        const outcome = values.outcome as GatewayOutcome;
        if (!Number.isInteger(paymentId) || !(outcome in OUTCOME_EVENTS)) {
          console.error(
            'simulate-payment needs <payment id> and --outcome succeeded|failed|processing|refunded',
          );
          return 2;
        }
        const baseUrl = values.url ?? `http://${config.host}:${config.port}`;
        const result = await simulatePayment(handle.db, {
          paymentId,
          outcome,
          baseUrl,
          secret: config.paymentWebhookSecret,
        });
        console.log(`${result.status} ${JSON.stringify(result.body)}`);
        return result.status === 200 ? 0 : 1;
      }
      case 'mail':
        return await mailCommand(config.mailDir, positionals);
      case 'seed-bench': {
        const sizes = Object.fromEntries(
          Object.entries(SEED_DEFAULTS).map(([name, fallback]) => {
            const raw = values[name as keyof typeof values];
            return [
              name,
              typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw === undefined ? fallback : -1,
            ];
          }),
        ) as typeof SEED_DEFAULTS;
        const problems = checkSeedSizes(sizes);
        if (problems.length) {
          for (const problem of problems) console.error(problem);
          return 2;
        }
        await migrateToLatest(handle.db);
        if (await benchDataPresent(handle.db)) {
          console.error('seed-bench: the database already holds the bench data (bench-vendor@example.com)');
          return 1;
        }
        console.log(`seed-bench: ${JSON.stringify(sizes)}`);
        const result = await seedBench(handle.db, sizes, {
          now: systemClock.now().getTime(),
          log: (line) => console.log(`  ${line}`),
        });
        console.log(
          `seed-bench: done in ${(result.timings.total / 1000).toFixed(1)} s ${JSON.stringify(result.rows)}`,
        );
        return 0;
      }
      default:
        console.error(USAGE);
        return command ? 2 : 0;
    }
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`${error.message}${error.errors ? ` ${JSON.stringify(error.errors)}` : ''}`);
      return 1;
    }
    throw error;
  } finally {
    await handle.close();
  }
}

async function mailCommand(dir: string, [subcommand, target]: string[]): Promise<number> {
  if (subcommand === 'list') {
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
  console.error('mail needs list, or show <file name or number>');
  console.error(USAGE);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
