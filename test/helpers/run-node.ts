import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface NodeProcess {
  child: ChildProcessWithoutNullStreams;
  /** what it has written so far */
  output(): { stdout: string; stderr: string };
  /** its exit status and everything it wrote, once it has ended */
  closed: Promise<Finished>;
}

/**
 * Starts one of the project's programs (`src/cli.ts`, `src/server.ts`) as npm runs it: a process of this
 * Node on the file, with only PATH and `env` in its environment (in `cwd`, else this directory).
 */
export function spawnNode(args: string[], env: Record<string, string>, cwd?: string): NodeProcess {
  return spawnProgram(process.execPath, args, env, cwd);
}

/** Starts `command` (found on PATH) the way spawnNode starts Node: only PATH and `env`, stdin closed. */
export function spawnProgram(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): NodeProcess {
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH, ...env } });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const closed = new Promise<Finished>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, output: () => ({ stdout, stderr }), closed };
}

/** Runs a program to its end (see spawnNode). */
export function runNode(args: string[], env: Record<string, string>, cwd?: string): Promise<Finished> {
  return spawnNode(args, env, cwd).closed;
}
