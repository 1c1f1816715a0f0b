import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildWeb } from '../../scripts/build-web.ts';
import {
  freshDatabase,
  killServers,
  type ServerProcess,
  startServer,
  type TestDatabase,
} from '../reliability/server-process.ts';

// The browser suites' world: the real server (node src/server.ts) on a database of its own (SQLite, or a
// new PostgreSQL database with TEST_DATABASE_URL), and Debian's Chromium driven by playwright-core.

/** Debian's Chromium (`apt-get install -y chromium`); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Without a Chromium the browser suites are skipped, loudly; `.ci/run` installs one and sets
 * REQUIRE_BROWSER=1, so there a missing browser fails the run instead.
 */
export const browserAvailable = existsSync(CHROMIUM);
if (!browserAvailable && process.env.REQUIRE_BROWSER === '1')
  throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM}`);
if (!browserAvailable)
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

export interface World {
  server: ServerProcess;
  database: TestDatabase;
  browser: Browser;
  /** pages' console errors and failed requests, checked after each test by `expectQuietConsole` */
  problems: string[];
  /** a fresh browser context (cookies, storage) with the console watched */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
}

/**
 * Starts the server and the browser once per file (beforeAll) and stops both (afterAll). `env` is passed
 * to the server, e.g. a short expiry sweep.
 */
export function useWorld(env: Record<string, string> = {}): World {
  const world = { problems: [] as string[] } as World;
  const contexts: BrowserContext[] = [];
  // uploaded photos of the file's server, removed with it
  let mediaDir = '';
  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'waterbook-browser-media-'));
    await buildWeb();
    world.database = await freshDatabase();
    world.server = await startServer(world.database.url, {
      MEDIA_DIR: mediaDir,
      ...env,
    });
    world.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await world.browser?.close();
    await killServers();
    await world.database?.drop();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });
  world.newPage = async (options = {}) => {
    const context = await world.browser.newContext({
      baseURL: world.server.url,
      viewport: options.viewport ?? { width: 1280, height: 900 },
      // The pages stand for people: headless Chromium's own User-Agent says HeadlessChrome, which click
      // tracking rightly stores as a bot's (decisions §17), so they present the desktop browser's.
      userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${world.browser.version()} Safari/537.36`,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') world.problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => world.problems.push(`page error: ${error.message}`));
    return page;
  };
  return world;
}

/** No console error, uncaught exception or CSP violation happened on any page of the test. */
export function expectQuietConsole(world: World, allowed: RegExp[] = []): void {
  const problems = world.problems.filter((p) => !allowed.some((pattern) => pattern.test(p)));
  world.problems.length = 0;
  expect(problems).toEqual([]);
}

/** A test that scans with axe at two widths several times needs more than the default timeout on a busy machine. */
export const AXE_HEAVY_MS = 90_000;

/** axe-core finds no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(severe, `axe on ${page.url()}`).toEqual([]);
}
