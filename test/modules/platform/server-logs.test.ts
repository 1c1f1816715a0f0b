import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, killServers, startServer } from '../../reliability/server-process.ts';

// The server's log format as a process chooses it: JSON on a pipe (a log collector), readable lines through
// pino-pretty on a terminal in development or with LOG_FORMAT=pretty.

const dir = mkdtempSync(join(tmpdir(), 'server-logs-'));
afterAll(async () => {
  await killServers();
  rmSync(dir, { recursive: true, force: true });
});

/** The server's stdout from its start to its SIGTERM exit. */
async function logsOf(env: Record<string, string>): Promise<string[]> {
  const server = await startServer(`sqlite:${join(dir, `${env.LOG_FORMAT ?? 'auto'}.sqlite`)}`, {
    LOG_LEVEL: 'info',
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  });
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
  return server.output().stdout.trim().split('\n');
}

/**
 * The server on a terminal (a pseudo-terminal from util-linux's `script`): what it wrote until it said it
 * listens, then it is stopped.
 */
async function onTerminal(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn('script', ['-qfec', `${process.execPath} src/server.ts`, '/dev/null'], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, `tty-${port}.sqlite`)}`,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 30 s: ${output}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Server listening at')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  await fetch(`http://127.0.0.1:${port}/healthz`);
  child.kill('SIGTERM');
  await exited;
  return stripVTControlCharacters(output);
}

describe('server logs', () => {
  it('are JSON lines when stdout is not a terminal', async () => {
    const lines = await logsOf({});
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.some((e) => e.msg.startsWith('Server listening at http://127.0.0.1:'))).toBe(true);
  });

  it('go through pino-pretty with LOG_FORMAT=pretty, on a pipe too', async () => {
    const lines = (await logsOf({ LOG_FORMAT: 'pretty' })).map(stripVTControlCharacters);
    expect(
      lines.some((l) =>
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('{'))).toBe(false);
  });

  it('are readable lines on a terminal in development, and JSON there in production', async () => {
    const development = await onTerminal({});
    expect(development).toMatch(
      /\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+/,
    );
    const production = await onTerminal({
      NODE_ENV: 'production',
      PAYMENT_WEBHOOK_SECRET: 'a-secret-of-16-chars',
      JWT_SECRET: 'a-jwt-secret-of-16-chars',
    });
    expect(production).toMatch(/\{"level":30,[^\n]*"msg":"Server listening at http:\/\/127\.0\.0\.1:\d+"\}/);
  }, 90_000);
});
