import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Finished, runNode } from '../../helpers/run-node.ts';
import {
  databaseOfFile,
  distinctWindow,
  freePort,
  makeFixture,
  startServer,
} from '../../reliability/server-process.ts';

// `npm run cli -- ...` as a process: its exit status (0 done, 1 failed, 2 wrong command line) and the one
// line it writes on stderr when something is wrong; never a stack trace unless --verbose asks for one.

const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
const CLI = resolve('src/cli.ts');
const database = databaseOfFile();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database path no command can open: the commands that need none must not try. */
const UNOPENABLE = { DATABASE_URL: `sqlite:${join(dir, 'no-such-dir', 'app.sqlite')}` };

function cli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Finished> {
  return runNode([CLI, ...args], { DATABASE_URL: database().url, ...env }, cwd);
}

function expectFailure(result: Finished, code: 1 | 2, line: string) {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code, stderr: `${line}\n` });
  expect(result.stdout).not.toMatch(/\n\s+at /);
}

describe('help', () => {
  it('prints the usage of every command for --help, -h and help, and exits 0 without opening the database', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await cli(args, UNOPENABLE);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\n')[0]).toBe('Usage: npm run cli -- <command> [options]');
      for (const command of ['migrate', 'migrate-down', 'create-admin', 'expire-holds', 'simulate-payment'])
        expect(result.stdout).toContain(`\n  ${command}`);
      expect(result.stdout).toContain('Exit status: 0 done, 1 failed, 2 wrong command line.');
    }
  });

  it("prints one command's usage for <command> --help and help <command>", async () => {
    const expected = 'Usage: npm run cli -- migrate-down\n\nrevert the latest migration\n';
    expect(await cli(['migrate-down', '--help'], UNOPENABLE)).toEqual({
      code: 0,
      stdout: expected,
      stderr: '',
    });
    expect(await cli(['help', 'migrate-down'], UNOPENABLE)).toEqual({
      code: 0,
      stdout: expected,
      stderr: '',
    });
    const payment = await cli(['simulate-payment', '-h'], UNOPENABLE);
    expect(payment.code).toBe(0);
    expect(payment.stdout.split('\n')[0]).toBe(
      'Usage: npm run cli -- simulate-payment <payment id> --outcome processing|succeeded|failed|refunded [--url URL]',
    );
  });

  it('prints the usage on stderr and exits 2 without a command', async () => {
    const result = await cli([], UNOPENABLE);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('Usage: npm run cli -- <command> [options]');
  });
});

describe('a wrong command line exits 2 with one line', () => {
  it('names an unknown command and where the list is', async () => {
    const expected = {
      code: 2,
      stdout: '',
      stderr: 'unknown command: frobnicate\nRun "npm run cli -- --help" for the list of commands.\n',
    };
    expect(await cli(['frobnicate'], UNOPENABLE)).toEqual(expected);
    expect(await cli(['help', 'frobnicate'], UNOPENABLE)).toEqual(expected);
  });

  it.each([
    [['migrate', '--force'], "migrate: Unknown option '--force' (see npm run cli -- migrate --help)"],
    [
      ['create-admin', '--email'],
      "create-admin: Option '--email <value>' argument missing (see npm run cli -- create-admin --help)",
    ],
    [['create-admin', '--email', 'a@b.example'], 'create-admin: missing --password'],
    [['migrate', 'now'], 'migrate: unexpected argument "now" (see npm run cli -- migrate --help)'],
    [
      ['simulate-payment'],
      'simulate-payment: missing argument (usage: npm run cli -- simulate-payment <payment id> ' +
        '--outcome processing|succeeded|failed|refunded [--url URL])',
    ],
    [
      ['simulate-payment', 'abc', '--outcome', 'succeeded'],
      'simulate-payment: the payment id must be a positive integer, got "abc"',
    ],
    [
      ['simulate-payment', '1', '--outcome', 'paid'],
      'simulate-payment: --outcome must be one of processing, succeeded, failed, refunded, got "paid"',
    ],
    [
      ['simulate-payment', '1', '--outcome', 'failed', '--url', 'localhost:8000'],
      `simulate-payment: --url must be the server's http(s) URL, such as http://127.0.0.1:8000, got "localhost:8000"`,
    ],
    [['seed-bench', '--clicks', 'many'], 'seed-bench: --clicks must be an integer >= 0'],
    [['mail', 'send'], 'mail: usage: npm run cli -- mail list | show <file name or number>'],
  ])('%j', async (args, line) => {
    expectFailure(await cli(args, UNOPENABLE), 2, line);
  });
});

describe('create-admin', () => {
  async function staffAccounts() {
    const handle = database().open();
    try {
      return await handle.db.selectFrom('users').select(['email', 'is_staff']).execute();
    } finally {
      await handle.close();
    }
  }

  it("refuses what the API's registration refuses (exit 2, no account), and creates a valid one", async () => {
    expectFailure(
      await cli(['create-admin', '--email', 'not-an-email', '--password', 'Paddle-2026!']),
      2,
      'create-admin: Invalid input. email: must match format "email"',
    );
    expectFailure(
      await cli(['create-admin', '--email', 'admin@example.com', '--password', '12345678']),
      2,
      'create-admin: Invalid input. password: Password must not be entirely numeric.',
    );
    expect(await staffAccounts()).toEqual([]);
    const created = await cli(['create-admin', '--email', 'admin@example.com', '--password', 'Paddle-2026!']);
    expect(created.code).toBe(0);
    expect(created.stdout).toBe('staff account admin@example.com created (id 1)\n');
    expect(await staffAccounts()).toEqual([{ email: 'admin@example.com', is_staff: 1 }]);
  });
});

describe('the database of DATABASE_URL', () => {
  it('is refused in a directory that does not exist (exit 1, nothing created)', async () => {
    const missing = join(dir, 'typo');
    expectFailure(
      await cli(['migrate'], { DATABASE_URL: `sqlite:${missing}/app.sqlite` }),
      1,
      `migrate: the directory of the SQLite database does not exist: ${missing} (DATABASE_URL=sqlite:${missing}/app.sqlite)`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it('is made in the default ./data directory, which is created, and in memory', async () => {
    const cwd = mkdtempSync(join(dir, 'fresh-clone-'));
    const fresh = await runNode([CLI, 'migrate'], {}, cwd);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(/migrations: up to date\n$/);
    expect(existsSync(join(cwd, 'data', 'app.sqlite'))).toBe(true);
    const memory = await cli(['migrate'], { DATABASE_URL: 'sqlite::memory:' });
    expect(memory.code).toBe(0);
  });

  it('names an unreachable PostgreSQL in one line (exit 1)', async () => {
    expectFailure(
      await cli(['migrate'], { DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/app' }),
      1,
      'migrate: PostgreSQL at 127.0.0.1:1/app refused the connection (DATABASE_URL)',
    );
  });

  it('turns an unexpected error into one line (exit 1); --verbose adds its stack', async () => {
    const empty = { DATABASE_URL: `sqlite:${join(dir, 'empty.sqlite')}` };
    const args = ['simulate-payment', '1', '--outcome', 'succeeded'];
    expectFailure(await cli(args, empty), 1, 'simulate-payment: no such table: payments');
    const verbose = await cli([...args, '--verbose'], empty);
    expect(verbose.code).toBe(1);
    expect(verbose.stderr.split('\n')[0]).toBe('simulate-payment: no such table: payments');
    expect(verbose.stderr).toMatch(/\n\s+at /);
  });
});

describe('simulate-payment', () => {
  it('plays the gateway to the server of --url or API_URL, and names a server it cannot reach', async () => {
    await cli(['migrate']);
    expectFailure(
      await cli(['simulate-payment', '999', '--outcome', 'succeeded']),
      1,
      'simulate-payment: no payment with id 999 in DATABASE_URL',
    );

    const server = await startServer(database().url);
    const fixture = await makeFixture(server.url);
    const call = async (path: string, token: string, body: unknown) => {
      const res = await fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, never>;
    };
    const booking = await call('/api/v1/booking/bookings/request/', fixture.customerToken, {
      equipment_item_id: fixture.listingId,
      ...distinctWindow(),
    });
    await call(`/api/v1/booking/bookings/${booking.id}/approve/`, fixture.vendorToken, {});
    const intent = await call('/api/v1/payment/intents/', fixture.customerToken, { booking_id: booking.id });
    const paymentId = String((intent.payment as { id: number }).id);

    const paid = await cli(['simulate-payment', paymentId, '--outcome', 'succeeded'], {
      API_URL: server.url,
    });
    expect(paid.code).toBe(0);
    const status = await fetch(`${server.url}/api/v1/booking/bookings/${booking.id}/`, {
      headers: { authorization: `Bearer ${fixture.customerToken}` },
    }).then((r) => r.json() as Promise<{ status: string }>);
    expect(status.status).toBe('confirmed');

    const closed = `http://127.0.0.1:${await freePort()}`;
    const refused = (url: string) =>
      `simulate-payment: cannot reach the server at ${url} (connection refused); pass --url or set API_URL`;
    // --url wins over API_URL
    expectFailure(
      await cli(['simulate-payment', paymentId, '--outcome', 'failed', '--url', closed], {
        API_URL: server.url,
      }),
      1,
      refused(closed),
    );
    // without either: http://HOST:PORT
    const port = String(await freePort());
    expectFailure(
      await cli(['simulate-payment', paymentId, '--outcome', 'failed'], { HOST: '127.0.0.1', PORT: port }),
      1,
      refused(`http://127.0.0.1:${port}`),
    );
  });
});
