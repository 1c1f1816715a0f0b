import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { buildTestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer } from '../../helpers/factories.ts';
import { spawnNode } from '../../helpers/run-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'server-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startServer(env: Record<string, string>) {
  const { child, output, closed } = spawnNode(['src/server.ts'], {
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    ...env,
  });
  return { child, exited: closed.then((result) => result.code), output };
}

/**
 * Whether /readyz answers 200 within 30 s (as test/reliability/server-process.ts allows: a busy machine starts
 * Node slowly).
 */
async function readyWithin30s(port: number): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return true;
  }
  return false;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('server process', () => {
  it('refuses a bad setting with one line naming the variable', async () => {
    const server = startServer({ PORT: 'eighty', DATABASE_URL: `sqlite:${join(dir, 'bad.sqlite')}` });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr.trim()).toBe(
      'Invalid configuration: PORT: must be an integer, got "eighty"',
    );
  });

  it('refuses to start in production without a webhook secret', async () => {
    const server = startServer({
      NODE_ENV: 'production',
      DATABASE_URL: `sqlite:${join(dir, 'prod.sqlite')}`,
    });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toContain('PAYMENT_WEBHOOK_SECRET: is required when NODE_ENV=production');
  });

  it('migrates, serves, warns about the missing webhook secret, and exits 0 on SIGTERM', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const server = startServer({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'ok.sqlite')}` });
    expect(await readyWithin30s(port)).toBe(true);
    const doc = (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`).then((r) => r.json())) as {
      openapi: string;
    };
    expect(doc.openapi).toBe('3.1.0');
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/accounts/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret-token-value' },
      body: JSON.stringify({ email: 'x@example.com', password: 'secret-password-value' }),
    });
    expect(login.status).toBe(401);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const { stdout } = server.output();
    expect(stdout).toContain('PAYMENT_WEBHOOK_SECRET is not set');
    // JSON logs with a request id; neither the token nor the password reaches them.
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.some((line) => line.reqId && line.req?.url === '/api/v1/accounts/token/')).toBe(true);
    expect(stdout).not.toContain('secret-token-value');
    expect(stdout).not.toContain('secret-password-value');
  }, 45_000);

  it('npm start hands SIGTERM to the server itself, which drains and exits: none is left behind', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const npm = spawn('npm', ['start'], {
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: `sqlite:${join(dir, 'npm-start.sqlite')}`,
        LOG_LEVEL: 'warn',
        SHUTDOWN_DRAIN_MS: '0',
      },
      stdio: 'ignore',
      detached: true, // a process group of its own, killed whole if the test fails half-way
    });
    const npmExited = new Promise((resolve) => npm.on('exit', resolve));
    try {
      expect(await readyWithin30s(port)).toBe(true);
      // The start script execs Node: the server is npm's only child, with the script's environment. (A
      // shell in between took the signal npm forwards and died, and the server went on serving.)
      const children = readFileSync(`/proc/${npm.pid}/task/${npm.pid}/children`, 'utf8').trim().split(' ');
      expect(children).toHaveLength(1);
      const server = Number(children[0]);
      expect(readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).toContain('src/server.ts');
      expect(readFileSync(`/proc/${server}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=1');

      npm.kill('SIGTERM'); // npm alone, as a process manager stopping `npm start` does
      await npmExited;
      for (let i = 0; i < 100 && alive(server); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(server)).toBe(false);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group is gone: nothing left behind
      }
    }
  }, 45_000);
});

describe('JWT key', () => {
  it('is generated once and kept in the database, so every instance accepts the same tokens', async () => {
    const t = await buildTestApp({ env: { JWT_SECRET: '' } });
    try {
      const customer = await registerCustomer(t.app);
      const second = await buildApp(t.config, { db: t.db, clock: t.clock });
      try {
        const res = await second.inject({
          method: 'GET',
          url: '/api/v1/accounts/me/',
          headers: { authorization: `Bearer ${customer.token}` },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().id).toBe(customer.id);
      } finally {
        await second.close();
      }
      const stored = await t.db
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', 'jwt_secret')
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0].value.length).toBeGreaterThanOrEqual(32);
    } finally {
      await t.close();
    }
  });
});
