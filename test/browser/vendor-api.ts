import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD } from '../reliability/server-process.ts';

// Seeding for the vendor dashboard's browser suites: accounts, listings and bookings made through the
// public API, as any client would, and the vendor's log-in through the page's form (not a test file).

export type Json = Record<string, unknown>;

export async function apiCall(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; status?: number; headers?: Record<string, string> } = {},
): Promise<Json> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(options.status ?? (method === 'POST' ? 201 : 200));
  return text ? (JSON.parse(text) as Json) : {};
}

export interface Account {
  email: string;
  token: string;
  id: number;
}

export async function registerVendor(
  base: string,
  businessName = 'Harbour Kayaks',
): Promise<Account & { slug: string }> {
  const email = `vendor-${randomBytes(4).toString('hex')}@example.com`;
  const user = await apiCall(base, 'POST', '/api/v1/accounts/register/vendor/', {
    body: { email, password: PASSWORD, business_name: businessName },
  });
  const { access } = await apiCall(base, 'POST', '/api/v1/accounts/token/', {
    body: { email, password: PASSWORD },
    status: 200,
  });
  const profile = user.vendor_profile as { slug: string };
  return { email, token: access as string, id: user.id as number, slug: profile.slug };
}

export async function registerCustomer(base: string): Promise<Account> {
  const email = `customer-${randomBytes(4).toString('hex')}@example.com`;
  const user = await apiCall(base, 'POST', '/api/v1/accounts/register/customer/', {
    body: {
      email,
      password: PASSWORD,
      first_name: 'Maya',
      last_name: 'Costa',
      phone_number: '+351 912 345 678',
    },
  });
  const { access } = await apiCall(base, 'POST', '/api/v1/accounts/token/', {
    body: { email, password: PASSWORD },
    status: 200,
  });
  return { email, token: access as string, id: user.id as number };
}

/** A window `days` from now, `hours` long, at 09:00 UTC. */
export function windowIn(days: number, hours = 2): { starts_at: string; ends_at: string } {
  const start = new Date();
  start.setUTCDate(start.getUTCDate() + days);
  start.setUTCHours(9, 0, 0, 0);
  return {
    starts_at: start.toISOString(),
    ends_at: new Date(start.getTime() + hours * 3_600_000).toISOString(),
  };
}

/** Confirms an approved booking the way the gateway does: an intent, then its unsigned success webhook. */
export async function pay(base: string, customerToken: string, bookingId: number): Promise<number> {
  const intent = await apiCall(base, 'POST', '/api/v1/payment/intents/', {
    body: { booking_id: bookingId },
    token: customerToken,
  });
  const payment = intent.payment as { id: number; gateway_payment_intent_id: string };
  await apiCall(base, 'POST', '/api/v1/payment/webhooks/gateway/', {
    body: {
      gateway_event_id: `evt_browser_${randomBytes(6).toString('hex')}`,
      event_type: 'payment_intent.succeeded',
      gateway_payment_intent_id: payment.gateway_payment_intent_id,
    },
    status: 200,
  });
  return payment.id;
}

/** The page's one h1 (the `Page` frame's title) reads `title`, once the page has loaded. */
export async function expectPageTitle(page: Page, title: string) {
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
}

/** Logs in through the form (decisions §18's names) and waits for the dashboard. */
export async function logInAsVendor(page: Page, email: string): Promise<void> {
  await page.goto('/login?next=/vendor/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/vendor/');
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
}

export const PHONE = { width: 390, height: 844 };

/** A page load asks for a session before anyone logged in: the browser logs that 401 as an error. */
export const QUIET = [/status of 401/];
