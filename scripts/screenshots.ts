// The README's screenshots, taken from the running app: `npm run screenshots` starts the server on a
// throwaway database, fills it through the public API with a small demo shop (photos, bookings in several
// states, campaign clicks), and photographs the main pages in Debian's Chromium into docs/screenshots/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { buildWeb } from './build-web.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'Screenshot-Paddle-2026!';
const DAY = 86_400_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function client(base: string) {
  return async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as Record<string, never>;
  };
}

/** A picture of water and a hull in the listing's colour: demo photos made here, nobody's image. */
function demoPhoto(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,75%)"/><stop offset="1" stop-color="hsl(${hue + 20},80%,35%)"/>
    </linearGradient></defs>
    <rect width="1200" height="800" fill="url(#s)"/>
    <circle cx="950" cy="180" r="90" fill="hsl(45,95%,70%)"/>
    <path d="M150 560 Q600 700 1050 560 L980 600 Q600 690 220 600 Z" fill="hsl(${(hue + 180) % 360},70%,45%)"/>
    <path d="M0 640 Q300 600 600 640 T1200 640 V800 H0 Z" fill="hsl(${hue},60%,30%)" opacity="0.6"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function uploadPhoto(base: string, path: string, token: string, hue: number, alt: string) {
  const form = new FormData();
  form.append('alt', alt);
  form.append('file', new Blob([new Uint8Array(await demoPhoto(hue))], { type: 'image/png' }), 'photo.png');
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`photo upload: ${res.status} ${await res.text()}`);
}

async function seed(base: string) {
  const api = client(base);
  await api('POST', '/api/v1/accounts/register/vendor/', {
    email: 'hello@lagos-kayaks.example',
    password: PASSWORD,
    business_name: 'Lagos Kayak Co.',
    description: 'Sea kayaks, paddleboards and sunset tours from the marina since 2012.',
    city: 'Lagos',
    country: 'PT',
    currency: 'EUR',
    time_zone: 'Europe/Lisbon',
  });
  const vendor = (
    await api('POST', '/api/v1/accounts/token/', { email: 'hello@lagos-kayaks.example', password: PASSWORD })
  ).access as string;
  const items = [
    { id: 'sea-kayak', title: 'Two-seat sea kayak', price: '45.00', quantity: 6, hue: 195 },
    { id: 'paddleboard', title: 'Inflatable paddleboard', price: '25.00', quantity: 10, hue: 170 },
    { id: 'snorkel-set', title: 'Snorkel set with fins', price: '8.50', quantity: 20, hue: 210 },
  ];
  const created: { id: number; public_id: string }[] = [];
  for (const item of items) {
    const listing = await api(
      'POST',
      '/api/v1/equipment/vendor/items/',
      {
        public_id: item.id,
        title: item.title,
        description:
          'Checked every morning, with buoyancy aids and a dry bag. Collect it at the marina kiosk.',
        location: 'Lagos marina',
        price_per_day: item.price,
        quantity: item.quantity,
        is_active: true,
        category_id: 1,
        cancellation_policy: { free_cancellation_hours: 48, late_refund_percent: 50 },
      },
      vendor,
    );
    created.push(listing as unknown as { id: number; public_id: string });
    await uploadPhoto(
      base,
      `/api/v1/equipment/vendor/items/${listing.id}/photos/`,
      vendor,
      item.hue,
      item.title,
    );
  }
  const tour = await api(
    'POST',
    '/api/v1/adventrues/vendor/offerings/',
    {
      public_id: 'sunset-cliffs-tour',
      title: 'Sunset tour to Ponta da Piedade',
      description: 'Two hours along the cliffs and grottoes with a local guide.',
      meeting_point: 'Marina de Lagos',
      duration_minutes: 120,
      capacity: 8,
      booking_mode: 'shared',
      price_per_person: '39.00',
      is_active: true,
      category_id: 1,
    },
    vendor,
  );
  await uploadPhoto(
    base,
    `/api/v1/adventrues/vendor/offerings/${tour.id}/photos/`,
    vendor,
    25,
    'Cliffs at sunset',
  );

  await api('POST', '/api/v1/accounts/register/customer/', {
    email: 'ana@example.com',
    password: PASSWORD,
    first_name: 'Ana',
    last_name: 'Silva',
    phone_number: '+351 912 345 678',
  });
  const customer = (
    await api('POST', '/api/v1/accounts/token/', { email: 'ana@example.com', password: PASSWORD })
  ).access as string;
  // clicks from two campaigns and organic visits, then bookings from some of them
  const campaigns = [
    'utm_source=newsletter&utm_campaign=summer',
    'utm_source=instagram&utm_campaign=sunset',
    '',
  ];
  const clicks: number[] = [];
  for (let i = 0; i < 24; i++) {
    const listing = created[i % created.length];
    const view = await api('GET', `/api/v1/equipment/items/${listing.public_id}/?${campaigns[i % 3]}`);
    clicks.push(view.marketing_click_id as number);
  }
  const start = Math.ceil(Date.now() / DAY) * DAY + 9 * 3_600_000;
  const book = (i: number, days: number, quantity: number) =>
    api(
      'POST',
      '/api/v1/booking/bookings/request/',
      {
        equipment_item_id: created[i % created.length].id,
        starts_at: new Date(start + (i + 2) * DAY).toISOString(),
        ends_at: new Date(start + (i + 2 + days) * DAY).toISOString(),
        quantity,
        marketing_click_id: clicks[i] ?? undefined,
        customer_notes: 'We are two adults.',
      },
      customer,
    );
  const confirmed = await book(0, 2, 2);
  await api('POST', `/api/v1/booking/bookings/${confirmed.id}/approve/`, {}, vendor);
  const intent = await api('POST', '/api/v1/payment/intents/', { booking_id: confirmed.id }, customer);
  await api(
    'POST',
    `/api/v1/payment/${(intent.payment as { id: number }).id}/mock-checkout/`,
    { outcome: 'succeeded' },
    customer,
  );
  const approved = await book(1, 1, 1);
  await api('POST', `/api/v1/booking/bookings/${approved.id}/approve/`, {}, vendor);
  await book(2, 3, 2);
  await book(4, 1, 1);
}

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

async function shoot(page: Page, path: string, name: string, ready: () => Promise<unknown>) {
  await page.goto(path);
  await ready();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

async function main() {
  await buildWeb();
  const dir = mkdtempSync(join(tmpdir(), 'waterbook-screenshots-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['src/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'app.sqlite')}`,
      MEDIA_DIR: join(dir, 'media'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    for (let i = 0; ; i++) {
      if (
        (await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        )) === true
      )
        break;
      if (i > 300) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    await seed(base);
    mkdirSync(OUT, { recursive: true });
    const desktop = await (
      await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } })
    ).newPage();
    await shoot(desktop, '/', 'home', () =>
      desktop
        .getByRole('link', { name: /Two-seat sea kayak/ })
        .first()
        .waitFor(),
    );
    await shoot(desktop, '/equipment/sea-kayak?utm_source=newsletter&utm_campaign=summer', 'listing', () =>
      desktop.getByRole('heading', { name: 'Two-seat sea kayak' }).waitFor(),
    );
    await logIn(desktop, 'ana@example.com');
    await shoot(desktop, '/bookings', 'my-bookings', () => desktop.getByText('Confirmed').first().waitFor());
    const vendorPage = await (
      await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } })
    ).newPage();
    await logIn(vendorPage, 'hello@lagos-kayaks.example');
    await shoot(vendorPage, '/vendor/', 'vendor-overview', () =>
      vendorPage.getByRole('heading', { level: 1 }).waitFor(),
    );
    await shoot(vendorPage, '/vendor/bookings', 'vendor-bookings', () =>
      vendorPage.getByRole('button', { name: 'Approve' }).first().waitFor(),
    );
    await shoot(vendorPage, '/vendor/analytics', 'vendor-analytics', () =>
      vendorPage.locator('canvas').first().waitFor(),
    );
    const phone = await (
      await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 } })
    ).newPage();
    await shoot(phone, '/equipment/paddleboard', 'listing-phone', () =>
      phone.getByRole('heading', { name: 'Inflatable paddleboard' }).waitFor(),
    );
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
