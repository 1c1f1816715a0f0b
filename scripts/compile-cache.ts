// The server's start command as `npm start` runs it, and Node's compile cache for it filled in advance.
//
// Why fill the cache: a start that finds one of its TypeScript sources missing from the cache
// (NODE_COMPILE_CACHE, set by `npm start`) strips its types with Node's stripper, a WebAssembly build of
// SWC, which then stays loaded for the life of the process: the server is ~12 MB more resident after
// start (148 against 136 MB here, 2026-11-22), against a peak-RSS target of 200 MB. That is the first start
// after `npm install` or after any change of the sources. `npm install` (the prepare script) and `npm start`
// (prestart: a `git pull` changes sources without an install) run this file, and the bench warms the cache
// the same way before it starts the server it measures. With the cache already full it takes about half a
// second.
//
// How: the server is started once exactly as `npm start` starts it (its Node flags are part of the cache's
// key) on an in-memory database, and stopped as soon as it listens. Every module a real start loads, the
// migrations included, is then in the cache.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StartCommand {
  /** Node's flags before `src/server.ts` */
  flags: string[];
  /** the environment defaults the script gives (`NAME=${NAME:-value}`), the caller's own values first */
  env: Record<string, string>;
}

/** The Node flags and environment defaults of package.json's `start` script. */
export function npmStartCommand(): StartCommand {
  const start: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const flags = /\bnode ((?:--\S+ )*)src\/server\.ts/.exec(start)?.[1] ?? '';
  const env = Object.fromEntries(
    [...start.matchAll(/\b([A-Z_]+)=\$\{\1:-([^}]*)\}/g)].map(([, name, value]) => [
      name,
      process.env[name] ?? value,
    ]),
  );
  return { flags: flags.split(' ').filter(Boolean), env };
}

const LISTENING = /"msg":"Server listening at /;

/**
 * Starts the server as `npm start` would, on `sqlite::memory:` and a free port (with `env` on top), stops
 * it once it listens, and resolves with what it wrote. Rejects if it exits before it listens, or does not
 * listen within `timeoutMs`.
 */
export function startServerOnce(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<string> {
  const start = npmStartCommand();
  // The child's stderr goes to a file, not a pipe: Node's native debug output (the compile cache's report,
  // thousands of lines) is written without waiting, so lines were lost whenever this process read the pipe
  // too slowly (a busy machine), and callers count those lines.
  const errDir = mkdtempSync(join(tmpdir(), 'server-start-'));
  const errFile = join(errDir, 'stderr');
  const errFd = openSync(errFile, 'w');
  const child = spawn(process.execPath, [...start.flags, 'src/server.ts'], {
    cwd: ROOT,
    // none of the caller's settings (a bad one would stop the server before it loads everything)
    env: {
      PATH: process.env.PATH,
      ...start.env,
      DATABASE_URL: 'sqlite::memory:',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info', // its "Server listening" line
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', errFd],
  });
  closeSync(errFd);
  // the server's log (stdout, where it says it listens), then everything it wrote to stderr
  let log = '';
  const output = () => {
    const text = log + readFileSync(errFile, 'utf8');
    rmSync(errDir, { recursive: true, force: true });
    return text;
  };
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk;
      if (LISTENING.test(log)) child.kill('SIGTERM');
    });
    child.on('error', reject);
    // 'close', not 'exit': the log is read to its end
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const listened = LISTENING.test(log);
      if (listened && (code === 0 || signal === 'SIGTERM')) resolve(output());
      else if (signal === 'SIGKILL' && !listened)
        reject(new Error(`the server did not listen within ${timeoutMs} ms:\n${output()}`));
      else reject(new Error(`the server exited (${code ?? signal}) before it listened:\n${output()}`));
    });
  });
}

/** Fills the compile cache with every source a start of the server loads. */
export async function warmCompileCache(): Promise<void> {
  await startServerOnce();
}

if (import.meta.main) {
  // An install never fails for this: the server then fills the cache at its own first start.
  const started = Date.now();
  await warmCompileCache().then(
    () =>
      console.log(`compile cache filled for the server in ${((Date.now() - started) / 1000).toFixed(1)} s`),
    (error: Error) => console.warn(`compile cache not filled (${error.message.split('\n')[0]})`),
  );
}
