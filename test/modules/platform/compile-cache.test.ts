import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { npmStartCommand, startServerOnce, warmCompileCache } from '../../../scripts/compile-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Node's own account of the compile cache during one start of the server on the cache in `cache`. */
async function startReportingCache(cache: string) {
  const output = await startServerOnce({ NODE_COMPILE_CACHE: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
  return {
    strippedNow: output.match(/no transpile cache for StrippedTypeScript/g)?.length ?? 0,
    fromCache: output.match(/retrieving transpile cache for StrippedTypeScript \S+\.ts\.\.\.success/g) ?? [],
  };
}

describe('the compile cache filled before the first start', () => {
  it("reads npm start's Node flags and environment defaults from package.json", () => {
    const { flags, env } = npmStartCommand();
    expect(flags).toContain('--max-old-space-size=256');
    expect(flags.every((flag) => flag.startsWith('--'))).toBe(true);
    expect(Object.keys(env).sort()).toEqual(['MALLOC_ARENA_MAX', 'NODE_COMPILE_CACHE']);
  });

  it('is filled by npm install and again before every npm start (sources change without an install)', () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8'));
    expect(scripts.prepare).toContain('node scripts/compile-cache.ts');
    expect(scripts.prestart).toContain('node scripts/compile-cache.ts');
  });

  it('lets the next start load every source without stripping its types again', async () => {
    // an empty cache: the server strips its sources itself, which loads Node's type stripper
    const cold = await startReportingCache(join(dir, 'cold'));
    expect(cold.strippedNow).toBeGreaterThan(50);

    const warm = join(dir, 'warm');
    const previous = process.env.NODE_COMPILE_CACHE;
    process.env.NODE_COMPILE_CACHE = warm;
    try {
      await warmCompileCache();
    } finally {
      if (previous === undefined) delete process.env.NODE_COMPILE_CACHE;
      else process.env.NODE_COMPILE_CACHE = previous;
    }
    const next = await startReportingCache(warm);
    expect(next.strippedNow).toBe(0);
    expect(next.fromCache.length).toBe(cold.strippedNow);
    expect(next.fromCache.some((line) => line.includes('/src/server.ts...'))).toBe(true);
  }, 60_000);
});
