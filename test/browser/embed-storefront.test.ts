import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, type Shop, seedShop } from './customer-seed.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';

// The embeddable storefront in an iframe of another site: a vendor's page served by a tiny server on
// localhost (another site than the app's 127.0.0.1) frames /embed/{slug}/, which shows and navigates inside
// the frame, while framing the site itself (/) is refused by frame-ancestors.

const NO_SESSION = [/401/];

describe.skipIf(!browserAvailable)('the embeddable storefront', () => {
  const world = useWorld();
  let shop: Shop;
  let outer: Server;
  let outerUrl: string;

  beforeAll(async () => {
    shop = await seedShop(world.server.url);
    // the vendor's own site: ?src= names what it frames
    outer = createServer((request, response) => {
      const src = new URL(request.url ?? '/', 'http://localhost').searchParams.get('src') ?? '';
      const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><head><title>Lagoon Paddles</title></head><body>` +
          `<h1>Our rentals</h1><iframe title="Book with us" src="${escaped}" width="800" height="700"></iframe>` +
          `</body></html>`,
      );
    });
    await new Promise<void>((resolve) => outer.listen(0, '127.0.0.1', resolve));
    outerUrl = `http://localhost:${(outer.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => outer.close(() => resolve())));

  const framing = (path: string) => `${outerUrl}?src=${encodeURIComponent(world.server.url + path)}`;

  it("shows the vendor's listings inside another site's iframe, and its links stay in the frame", async () => {
    const page = await world.newPage();
    await page.goto(framing(`/embed/${shop.slug}/?utm_source=partner-site&utm_campaign=embed`));
    const frame = page.frameLocator('iframe');
    await expect.poll(() => frame.getByRole('heading', { level: 1 }).textContent()).toBe(shop.businessName);
    await expect.poll(() => frame.getByRole('link', { name: shop.adventure.title }).count()).toBe(1);

    await frame.getByRole('link', { name: shop.equipment.title }).click();
    await expect
      .poll(() => frame.getByRole('heading', { level: 1 }).textContent())
      .toBe(shop.equipment.title);
    // the outer page stayed; the frame moved to the embed's listing page, the campaign carried along
    expect(page.url()).toBe(framing(`/embed/${shop.slug}/?utm_source=partner-site&utm_campaign=embed`));
    const inner = page.frames().find((f) => f !== page.mainFrame());
    expect(new URL(inner?.url() ?? '').pathname).toBe(
      `/embed/${shop.slug}/equipment/${shop.equipment.public_id}`,
    );

    // the click names the vendor's page as its referrer (the frame's document.referrer, passed as the
    // detail view's `referrer`) and carries the embed's campaign
    const now = Date.now();
    const clicks = (await apiOf(world.server.url).get(
      `/api/v1/marketing/vendor/clicks/?from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}`,
      shop.vendorToken,
    )) as { results: Record<string, unknown>[] };
    expect(clicks.results.find((c) => c.public_id === shop.equipment.public_id)).toMatchObject({
      traffic_type: 'marketing',
      utm_source: 'partner-site',
      utm_campaign: 'embed',
      referrer: expect.stringMatching(new RegExp(`^${outerUrl}`)),
    });

    // no session inside another site's frame: booking opens the site's login in a new tab, campaign kept
    const logIn = frame.getByRole('link', { name: 'Log in to book' });
    await expect.poll(() => logIn.count()).toBe(1);
    expect(await logIn.getAttribute('target')).toBe('_blank');
    expect(await logIn.getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent(`/equipment/${shop.equipment.public_id}?utm_source=partner-site&utm_campaign=embed`)}`,
    );
    // the vendor link goes back to the embed's storefront, not the site's
    await frame.getByRole('link', { name: shop.businessName }).click();
    await expect.poll(() => frame.getByRole('heading', { level: 2, name: 'Equipment' }).count()).toBe(1);
    expectQuietConsole(world, NO_SESSION);
  });

  it('is refused when another site frames the customer site itself', async () => {
    const page = await world.newPage();
    const refusals: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('frame-ancestors')) refusals.push(m.text());
    });
    await page.goto(framing('/'));
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toContain("frame-ancestors 'none'");
    // nothing of the site rendered in the frame
    expect(await page.frameLocator('iframe').getByRole('link', { name: 'Waterbook' }).count()).toBe(0);
    expectQuietConsole(world, [/frame-ancestors/]);
  });

  for (const viewport of [
    { width: 800, height: 700 },
    { width: 390, height: 844 },
  ]) {
    it(`passes axe at ${viewport.width}px, storefront and listing page`, async () => {
      const page = await world.newPage({ viewport });
      await page.goto(`/embed/${shop.slug}/`);
      await expect.poll(() => page.getByRole('link', { name: shop.equipment.title }).count()).toBe(1);
      await expectAccessible(page);
      await page.goto(`/embed/${shop.slug}/adventures/${shop.adventure.public_id}`);
      await expect.poll(() => page.locator('table.availability tbody tr').count()).toBe(14);
      await expectAccessible(page);
      expectQuietConsole(world, NO_SESSION);
    });
  }
});
