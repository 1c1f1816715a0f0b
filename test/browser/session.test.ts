import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../reliability/server-process.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';

async function register(base: string, kind: 'customer' | 'vendor', email: string) {
  const body =
    kind === 'vendor'
      ? { email, password: PASSWORD, business_name: `Shell ${email}` }
      : { email, password: PASSWORD };
  const res = await fetch(`${base}/api/v1/accounts/register/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

describe.skipIf(!browserAvailable)('the web app shell and its session', () => {
  const world = useWorld();

  it('serves every page path with a strict CSP; only the embed may be framed', async () => {
    for (const path of [
      '/',
      '/login',
      '/account',
      '/reset-password',
      '/equipment/some-kayak',
      '/vendor/',
      '/vendor/bookings',
    ]) {
      const res = await fetch(world.server.url + path);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toMatch(/<script type="module" src="\/assets\/app-[A-Z0-9]+\.js"><\/script>/);
    }
    const embed = await fetch(`${world.server.url}/embed/some-vendor/`);
    expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(embed.headers.get('x-frame-options')).toBeNull();
    // the API itself is not a page: unknown API paths stay JSON 404s
    const api = await fetch(`${world.server.url}/api/v1/nothing-here/`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('not_found');
  });

  it('logs a customer in, keeps the session across a reload without exposing the refresh token, and logs out', async () => {
    const email = `shell-customer-${Date.now()}@example.com`;
    await register(world.server.url, 'customer', email);
    const page = await world.newPage();
    await page.goto('/login');
    await expectAccessible(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/bookings');
    await expect.poll(() => page.getByRole('link', { name: 'My bookings' }).count()).toBe(1);

    // the refresh token is an HttpOnly cookie scoped to the session endpoint: scripts cannot read it
    expect(await page.evaluate('document.cookie')).toBe('');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'waterbook_refresh');
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/v1/accounts/web-session/',
    });

    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Log out' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Log in' }).count()).toBe(1);
    // the revoked cookie gives no session after a reload either
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: 'Log in' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'My bookings' }).count()).toBe(0);
    expectQuietConsole(world, [/401/]);
  });

  it("shows the API's refusal of a wrong password as a message", async () => {
    const page = await world.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong-password-123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('No active account found with the given credentials');
    expectQuietConsole(world, [/401/]);
  });
});
