// `npm run bench:web`: what a slow phone pays for the customer site's pages. For `/` and a listing page,
// the JavaScript and CSS transferred (compressed, as sent) and the first contentful paint under
// Lighthouse's "Slow 4G" network profile and a 4× CPU slowdown, in Debian's Chromium (CHROMIUM_PATH names
// another). The server runs as in production on a fresh SQLite database with one seeded vendor.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { buildWeb } from '../scripts/build-web.ts';
import { freePort, serverEnv } from './server-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = 5;
const PASSWORD = 'Bench-Paddle-2024!';

/** Lighthouse's "Slow 4G" (its devtools throttling): round trip and throughput. */
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

async function waitForServer(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become ready');
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A vendor with one listing; its page's path. */
async function seed(base: string): Promise<string> {
  const email = 'bench-web-vendor@example.com';
  await post(base, '/api/v1/accounts/register/vendor/', {
    email,
    password: PASSWORD,
    business_name: 'Bench Kayaks',
  });
  const token = (await post(base, '/api/v1/accounts/token/', { email, password: PASSWORD })).access as string;
  const item = await post(
    base,
    '/api/v1/equipment/vendor/items/',
    {
      public_id: 'bench-kayak',
      title: 'Touring kayak',
      description: 'A stable two-seat touring kayak.',
      price_per_day: '45.00',
      quantity: 3,
      is_active: true,
      category_id: 1,
    },
    token,
  );
  return `/equipment/${item.public_id}`;
}

interface Measure {
  jsCssBytes: number;
  fcpMs: number;
}

async function measure(browser: import('playwright-core').Browser, url: string): Promise<Measure> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  let jsCssBytes = 0;
  page.on('response', (response) => {
    if (/javascript|text\/css/.test(response.headers()['content-type'] ?? ''))
      jsCssBytes += Number(response.headers()['content-length'] ?? 0);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const fcpMs = (await page.evaluate(
    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1",
  )) as number;
  await context.close();
  return { jsCssBytes, fcpMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  await buildWeb();
  const dir = mkdtempSync(join(tmpdir(), 'waterbook-web-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...serverEnv(port, `sqlite:${join(dir, 'bench.sqlite')}`) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    await waitForServer(base, child);
    const listing = await seed(base);
    console.log(
      `Slow 4G (${SLOW_4G.latency} ms RTT, ${Math.round((SLOW_4G.downloadThroughput * 8) / 1024)} kbit/s down), CPU ${CPU_SLOWDOWN}× slower, 390×844, median of ${RUNS} cold loads`,
    );
    console.log('page            JS+CSS transferred   first contentful paint');
    for (const [name, path] of [
      ['/', '/'],
      ['listing page', listing],
    ] as const) {
      const runs: Measure[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, base + path));
      const kb = (median(runs.map((r) => r.jsCssBytes)) / 1024).toFixed(1);
      const fcp = Math.round(median(runs.map((r) => r.fcpMs)));
      console.log(`${name.padEnd(16)}${`${kb} KB`.padEnd(21)}${fcp} ms`);
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
