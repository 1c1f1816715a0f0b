import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { seedShop } from './customer-seed.ts';
import { browserAvailable, expectQuietConsole, useWorld } from './harness.ts';

// The customer listing page's budget (issue 25): under 100 KB of JavaScript and CSS as transferred,
// compressed. The assets are compressed at build time and sent pre-compressed (scripts/build-web.ts).

const BUDGET_BYTES = 100 * 1024;

/** The headers of one GET with the given Accept-Encoding (fetch would decompress and hide them). */
function headersOf(
  url: string,
  acceptEncoding: string,
): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    })
      .on('error', reject)
      .end();
  });
}

describe.skipIf(!browserAvailable)('the customer pages’ size', () => {
  const world = useWorld();

  it('ships a listing page in less than 100 KB of compressed JS and CSS', async () => {
    const shop = await seedShop(world.server.url);
    const page = await world.newPage({ viewport: { width: 390, height: 844 } });
    const assets: { url: string; bytes: number; encoding: string }[] = [];
    page.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (!/javascript|text\/css/.test(type)) return;
      assets.push({
        url: response.url(),
        bytes: Number(response.headers()['content-length']),
        encoding: response.headers()['content-encoding'] ?? 'identity',
      });
    });
    await page.goto(`/equipment/${shop.equipment.public_id}`);
    await expect.poll(() => page.locator('table.availability tbody tr').count()).toBe(14);

    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      // Chromium asks for Brotli over HTTPS only: over plain HTTP it gets the gzip twin
      expect(asset.encoding, asset.url).toMatch(/^(gzip|br)$/);
      expect(asset.bytes, asset.url).toBeGreaterThan(0);
    }
    const total = assets.reduce((sum, asset) => sum + asset.bytes, 0);
    expect(total).toBeLessThan(BUDGET_BYTES);

    // a client accepting Brotli gets the smaller twin of each
    for (const asset of assets) {
      const brotli = await headersOf(asset.url, 'br, gzip');
      expect(brotli['content-encoding'], asset.url).toBe('br');
      expect(Number(brotli['content-length'])).toBeLessThanOrEqual(asset.bytes);
      expect(brotli.vary).toContain('accept-encoding');
    }
    expectQuietConsole(world, [/401/]);
  });
});
