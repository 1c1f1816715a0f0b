import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { createDb } from './db/create-db.ts';
import { migrateDown, migrateToLatest } from './db/migrate.ts';
import { AppError } from './http/errors.ts';
import { systemClock } from './lib/clock.ts';
import { createStaff } from './modules/accounts/index.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending migrations to DATABASE_URL
  migrate-down                              revert the latest migration
  create-admin --email E --password P       create a staff account (manages categories)
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, password: { type: 'string' } },
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

process.exitCode = await main(process.argv.slice(2));
