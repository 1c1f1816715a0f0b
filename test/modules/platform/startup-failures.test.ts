import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Finished, runNode } from '../../helpers/run-node.ts';

// A server that cannot start says why in one line on stderr and exits 1, with no stack trace
// (decisions §18): the port taken, the database unreachable, HOST unresolvable, the SQLite directory missing.

const dir = mkdtempSync(join(tmpdir(), 'startup-failures-'));
const listeners: Server[] = [];
afterAll(() => {
  for (const listener of listeners) listener.close();
  rmSync(dir, { recursive: true, force: true });
});

const SERVER = resolve('src/server.ts');

function start(env: Record<string, string>, cwd?: string): Promise<Finished> {
  return runNode([SERVER], { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env }, cwd);
}

function expectOneLineFailure(result: Finished, line: string) {
  expect(result.stderr).toBe(`${line}\n`);
  expect(result.code).toBe(1);
  expect(result.stdout).not.toMatch(/\n\s+at /);
}

/** A port some other program is listening on. */
async function takenPort(): Promise<number> {
  const listener = createServer();
  listeners.push(listener);
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  return (listener.address() as { port: number }).port;
}

describe('start-up failures', () => {
  it('names a port that is already in use', async () => {
    const port = await takenPort();
    const result = await start({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'port.sqlite')}` });
    expectOneLineFailure(result, `Cannot start: port ${port} on 127.0.0.1 is already in use`);
  });

  it('names an unreachable PostgreSQL, without its password', async () => {
    const result = await start({ DATABASE_URL: 'postgres://app:secret-pw@127.0.0.1:1/app' });
    expectOneLineFailure(
      result,
      'Cannot start: PostgreSQL at 127.0.0.1:1/app refused the connection (DATABASE_URL)',
    );
  });

  it('names a HOST that does not resolve', async () => {
    const result = await start({
      HOST: 'no-such-host.invalid',
      DATABASE_URL: `sqlite:${join(dir, 'host.sqlite')}`,
    });
    expectOneLineFailure(result, 'Cannot start: HOST no-such-host.invalid does not resolve to an address');
  });

  it('refuses a SQLite file in a directory that does not exist, and creates no database', async () => {
    const missing = join(dir, 'no-such-dir');
    const result = await start({ DATABASE_URL: `sqlite:${missing}/app.sqlite` });
    expectOneLineFailure(
      result,
      `Cannot start: the directory of the SQLite database does not exist: ${missing} ` +
        `(DATABASE_URL=sqlite:${missing}/app.sqlite)`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it('shows the stack of a start-up failure at LOG_LEVEL=debug', async () => {
    const result = await start({ LOG_LEVEL: 'debug', DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/app' });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      'Cannot start: PostgreSQL at 127.0.0.1:1/app refused the connection (DATABASE_URL)',
    );
    expect(result.stderr).toMatch(/\n\s+at /);
  });
});
