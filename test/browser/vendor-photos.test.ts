import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, expectPageTitle, logInAsVendor, PHONE, QUIET, registerVendor } from './vendor-api.ts';

// A listing's photos in the vendor dashboard (decisions §16): uploaded through the page's file input,
// re-encoded by the server, reordered, described and deleted, and seen through the public API.

describe.skipIf(!browserAvailable)('vendor dashboard: photos', () => {
  const world = useWorld();

  it('uploads photos with alt text, reorders one, changes an alt text and deletes one', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Photo Boats');
    const item = await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
      token: vendor.token,
      body: { public_id: 'photo-kayak', title: 'Red kayak', price_per_day: '35.00', category_id: 1 },
    });
    const png = (red: number) =>
      sharp({ create: { width: 900, height: 600, channels: 3, background: { r: red, g: 40, b: 40 } } })
        .png()
        .toBuffer();
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.goto(`/vendor/listings/equipment/${item.id}`);
    await expectPageTitle(page, 'Red kayak');

    for (const [name, alt, red] of [
      ['bow.png', 'The bow on the beach', 200],
      ['stern.png', 'The stern at sea', 90],
    ] as const) {
      await page
        .getByLabel('Photo file')
        .setInputFiles({ name, mimeType: 'image/png', buffer: await png(red) });
      await page.getByLabel('Alt text', { exact: true }).fill(alt);
      await page.getByRole('button', { name: 'Upload photo' }).click();
      await expect.poll(() => page.getByRole('img', { name: alt }).count()).toBe(1);
    }
    // the thumbnail the server made is what the page shows, and it loads
    const thumbnail = page.getByRole('img', { name: 'The bow on the beach' });
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(400);
    const publicPhotos = async () =>
      (
        (await apiCall(base, 'GET', '/api/v1/equipment/items/photo-kayak/')).photos as {
          alt: string;
          url: string;
        }[]
      ).map((p) => p.alt);
    expect(await publicPhotos()).toEqual(['The bow on the beach', 'The stern at sea']);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Move photo 2 up' }).click();
    await expect.poll(publicPhotos).toEqual(['The stern at sea', 'The bow on the beach']);
    await expect.poll(() => page.getByLabel('Alt text of photo 1').inputValue()).toBe('The stern at sea');

    await page.getByLabel('Alt text of photo 2').fill('The bow, pulled up the sand');
    await page
      .getByRole('listitem')
      .filter({ has: page.getByLabel('Alt text of photo 2') })
      .getByRole('button', { name: 'Save alt text' })
      .click();
    await expect.poll(publicPhotos).toEqual(['The stern at sea', 'The bow, pulled up the sand']);

    await page.getByRole('button', { name: 'Delete photo 1' }).click();
    await expect.poll(publicPhotos).toEqual(['The bow, pulled up the sand']);
    await expect.poll(() => page.getByRole('img', { name: 'The stern at sea' }).count()).toBe(0);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });
});
