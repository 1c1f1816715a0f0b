import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageOf } from '../../../src/http/pagination.ts';
import { LocalDiskStorage } from '../../../src/media/storage.ts';
import { EQUIPMENT as EQUIPMENT_KIND } from '../../../src/modules/catalog/index.ts';
import {
  createCatalogDeps,
  listOwnListings,
  listPublicListings,
} from '../../../src/modules/catalog/listings.service.ts';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { type FilePart, multipartBody } from '../../helpers/multipart.ts';

// Listing photos (decisions §16): uploads judged by their decoded content, re-encoded without metadata and
// resized, stored under random names in MEDIA_DIR and served with long cache headers; at most 20 per
// listing, also under simultaneous uploads; order and alt text; removal with the files; photos in every
// listing object, never stale behind the caches.

let t: TestApp;
let api: Injector;
let vendor: Account;
let otherVendor: Account;
let customer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  [vendor, otherVendor, customer] = await Promise.all([
    registerVendor(t.app),
    registerVendor(t.app),
    registerCustomer(t.app),
  ]);
});
afterAll(() => t.close());

const EQUIPMENT = '/api/v1/equipment/vendor/items';
const photosPath = (listing: ListingOut, base = EQUIPMENT) => `${base}/${listing.id}/photos/`;
const photoPath = (listing: ListingOut, photoId: number, base = EQUIPMENT) =>
  `${base}/${listing.id}/photos/${photoId}/`;

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } });
const png = (width: number, height: number) => solid(width, height).png().toBuffer();
const jpeg = (width: number, height: number) => solid(width, height).jpeg().toBuffer();

const form = (files: FilePart[], fields: Record<string, string> = {}) => multipartBody(fields, files);

async function upload(
  listing: ListingOut,
  file: FilePart | FilePart[],
  options: { alt?: string; token?: string; base?: string } = {},
) {
  const fields: Record<string, string> = options.alt === undefined ? {} : { alt: options.alt };
  return api({
    method: 'POST',
    url: photosPath(listing, options.base),
    token: options.token ?? vendor.token,
    ...(await form([file].flat(), fields)),
  });
}

async function uploaded(listing: ListingOut, file: FilePart, alt?: string) {
  const res = await upload(listing, file, { alt });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const mediaFiles = async () => (await readdir(t.config.mediaDir)).sort();
const fileOf = (url: string) => join(t.config.mediaDir, url.replace(/^\/media\//, ''));
const storedMetadata = async (url: string) => sharp(await readFile(fileOf(url))).metadata();

describe('uploading a photo', () => {
  it('re-encodes a PNG as WebP at most 1600 px wide, with a 400 px thumbnail, served for good', async () => {
    const listing = await createEquipment(t.app, vendor);
    const res = await upload(listing, { data: await png(2400, 1200) }, { alt: '  Two kayaks  ' });
    expect(res.statusCode, res.body).toBe(201);
    const photo = res.json();
    expect(photo).toEqual({
      id: expect.any(Number),
      url: expect.stringMatching(/^\/media\/[A-Za-z0-9_-]{22}\.webp$/),
      thumbnail_url: expect.stringMatching(/^\/media\/[A-Za-z0-9_-]{22}\.webp$/),
      width: 1600,
      height: 800,
      alt: 'Two kayaks',
      position: 0,
      created_at: t.clock.now().toISOString(),
    });
    expect(photo.url).not.toBe(photo.thumbnail_url);
    const image = await storedMetadata(photo.url);
    expect([image.format, image.width, image.height]).toEqual(['webp', 1600, 800]);
    const thumbnail = await storedMetadata(photo.thumbnail_url);
    expect([thumbnail.format, thumbnail.width, thumbnail.height]).toEqual(['webp', 400, 200]);

    const served = await api({ method: 'GET', url: photo.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(await readFile(fileOf(photo.url)))).toBe(true);
    expect(Number(served.headers['content-length'])).toBe(served.rawPayload.length);
  });

  it('never upscales: an 800 px JPEG stays 800 px wide, its thumbnail 400', async () => {
    const listing = await createEquipment(t.app, vendor);
    const photo = await uploaded(listing, {
      data: await jpeg(800, 600),
      filename: 'a.jpg',
      type: 'image/jpeg',
    });
    expect([photo.width, photo.height]).toEqual([800, 600]);
    expect((await storedMetadata(photo.thumbnail_url)).width).toBe(400);
    const small = await uploaded(listing, { data: await png(300, 200) });
    expect([small.width, small.height, (await storedMetadata(small.thumbnail_url)).width]).toEqual([
      300, 200, 300,
    ]);
  });

  it('turns a photo upright by its EXIF orientation and keeps none of its metadata (GPS included)', async () => {
    const listing = await createEquipment(t.app, vendor);
    const gps = { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W' } };
    const camera = await solid(800, 400)
      .jpeg()
      .withExif({ IFD0: { Make: 'Pocket camera' }, ...gps })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const input = await sharp(camera).metadata();
    expect([input.orientation, input.width, input.height]).toEqual([6, 800, 400]);
    const withoutGps = await sharp(
      await solid(800, 400)
        .jpeg()
        .withExif({ IFD0: { Make: 'Pocket camera' } })
        .toBuffer(),
    ).metadata();
    expect(input.exif!.length).toBeGreaterThan(withoutGps.exif!.length);

    const photo = await uploaded(listing, { data: camera, filename: 'IMG_0001.JPG', type: 'image/jpeg' });
    // orientation 6 is a quarter turn: the stored image is portrait
    expect([photo.width, photo.height]).toEqual([400, 800]);
    for (const url of [photo.url, photo.thumbnail_url]) {
      const stored = await storedMetadata(url);
      expect(stored.orientation).toBeUndefined();
      expect(stored.exif).toBeUndefined();
      expect(stored.xmp).toBeUndefined();
      expect(stored.iptc).toBeUndefined();
      expect(stored.icc).toBeUndefined();
    }
    // never the uploaded name
    expect((await mediaFiles()).some((name) => name.includes('IMG_0001'))).toBe(false);
  });

  it('stores WebP uploads too, under the adventure paths and their alias', async () => {
    const offering = await createAdventure(t.app, vendor);
    const webp = await solid(500, 500).webp().toBuffer();
    for (const base of ['/api/v1/adventrues/vendor/offerings', '/api/v1/adventures/vendor/offerings']) {
      const res = await upload(offering, { data: webp, type: 'image/webp', filename: 'x.webp' }, { base });
      expect(res.statusCode, res.body).toBe(201);
    }
    const own = await api({
      method: 'GET',
      url: `/api/v1/adventrues/vendor/offerings/${offering.id}/`,
      token: vendor.token,
    });
    expect(own.json().photos.map((p: { position: number }) => p.position)).toEqual([0, 1]);
  });

  const refusals: [string, () => Promise<{ files: FilePart[]; fields?: Record<string, string> }>, object][] =
    [
      [
        'a text file named .jpg',
        async () => ({
          files: [{ data: Buffer.from('not an image at all\n'), filename: 'x.jpg', type: 'image/jpeg' }],
        }),
        { file: ['Upload a JPEG, PNG or WebP image.'] },
      ],
      [
        'a GIF (decodable, not accepted)',
        async () => ({ files: [{ data: await solid(10, 10).gif().toBuffer(), filename: 'x.png' }] }),
        { file: ['Upload a JPEG, PNG or WebP image.'] },
      ],
      [
        'a PNG declaring 10000 × 10000 pixels',
        async () => ({ files: [{ data: await declaringSize(await png(8, 8), 10_000, 10_000) }] }),
        { file: ['The image has more than 40 million pixels.'] },
      ],
      [
        'a PNG cut short after its header',
        async () => ({ files: [{ data: (await png(600, 600)).subarray(0, 200) }] }),
        { file: ['The image could not be decoded.'] },
      ],
      [
        'a file over 10 MiB',
        async () => ({ files: [{ data: Buffer.alloc(10 * 1024 * 1024 + 1, 7) }] }),
        { file: ['At most 10 MiB.'] },
      ],
      [
        'two files',
        async () => ({ files: [{ data: await png(10, 10) }, { data: await png(10, 10) }] }),
        { file: ['Send exactly one file.'] },
      ],
      [
        'a file in another field',
        async () => ({ files: [{ data: await png(10, 10), field: 'image' }] }),
        { file: ['Send the image in the field "file".'] },
      ],
      ['no file', async () => ({ files: [], fields: { alt: 'x' } }), { file: ['This field is required.'] }],
      [
        'an alt text over 500 characters',
        async () => ({ files: [{ data: await png(10, 10) }], fields: { alt: 'a'.repeat(501) } }),
        { alt: ['At most 500 characters.'] },
      ],
    ];
  for (const [name, make, errors] of refusals) {
    it(`refuses ${name} with a 400 naming the field, storing nothing`, async () => {
      const listing = await createEquipment(t.app, vendor);
      const before = await mediaFiles();
      const { files, fields } = await make();
      const res = await api({
        method: 'POST',
        url: photosPath(listing),
        token: vendor.token,
        ...(await form(files, fields)),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ detail: 'Invalid input.', code: 'invalid', errors });
      expect(await mediaFiles()).toEqual(before);
      const own = await api({ method: 'GET', url: `${EQUIPMENT}/${listing.id}/`, token: vendor.token });
      expect(own.json().photos).toEqual([]);
    });
  }

  it('takes only multipart here (415 for JSON), and multipart nowhere else', async () => {
    const listing = await createEquipment(t.app, vendor);
    const json = await api({
      method: 'POST',
      url: photosPath(listing),
      token: vendor.token,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('unsupported_media_type');
    const elsewhere = await api({
      method: 'POST',
      url: `${EQUIPMENT}/`,
      token: vendor.token,
      ...(await form([{ data: await png(10, 10) }])),
    });
    expect(elsewhere.statusCode).toBe(415);
    const patch = await api({
      method: 'PATCH',
      url: photoPath(listing, 1),
      token: vendor.token,
      ...(await form([{ data: await png(10, 10) }])),
    });
    expect(patch.statusCode).toBe(415);
  });
});

/** `image` (a PNG) with its header claiming another size: a decompression bomb's first bytes. */
async function declaringSize(image: Buffer, width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(image);
  // signature (8), IHDR length (4) and type (4), then width and height, then the chunk's CRC
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

describe('who may change photos', () => {
  let listing: ListingOut;
  let photo: { id: number };
  beforeAll(async () => {
    listing = await createEquipment(t.app, vendor);
    photo = await uploaded(listing, { data: await png(20, 20) });
  });

  it("answers 404 for another vendor's listing and 403 for a customer, changing nothing", async () => {
    const attempts = [
      (token: string) => upload(listing, { data: Buffer.alloc(0) }, { token }),
      (token: string) =>
        api({ method: 'PATCH', url: photoPath(listing, photo.id), token, payload: { alt: 'mine' } }),
      (token: string) => api({ method: 'DELETE', url: photoPath(listing, photo.id), token }),
    ];
    for (const attempt of attempts) {
      expect((await attempt(otherVendor.token)).statusCode).toBe(404);
      expect((await attempt(customer.token)).statusCode).toBe(403);
    }
    const own = await api({ method: 'GET', url: `${EQUIPMENT}/${listing.id}/`, token: vendor.token });
    expect(own.json().photos).toMatchObject([{ id: photo.id, alt: '' }]);
  });

  it('answers 404 for a photo under another listing id, or an unknown one', async () => {
    const other = await createEquipment(t.app, vendor);
    for (const url of [photoPath(other, photo.id), photoPath(listing, photo.id + 1000)]) {
      const patch = await api({ method: 'PATCH', url, token: vendor.token, payload: { alt: 'x' } });
      expect(patch.statusCode).toBe(404);
      expect(patch.json()).toEqual({ detail: 'Photo not found.', code: 'not_found' });
      expect((await api({ method: 'DELETE', url, token: vendor.token })).statusCode).toBe(404);
    }
    // an equipment item's id under the adventure paths is no adventure of the vendor's
    const res = await upload(
      listing,
      { data: await png(10, 10) },
      { base: '/api/v1/adventrues/vendor/offerings' },
    );
    expect(res.statusCode).toBe(404);
  });
});

describe('twenty photos at most', () => {
  it('refuses the 21st photo', async () => {
    const listing = await createEquipment(t.app, vendor);
    const data = await png(16, 16);
    for (let i = 0; i < 20; i++) await uploaded(listing, { data });
    const before = await mediaFiles();
    const res = await upload(listing, { data });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ file: ['A listing has at most 20 photos: delete one first.'] });
    expect(await mediaFiles()).toEqual(before);
  });

  it('keeps exactly 20 of simultaneous uploads past the limit, their positions 0 to 19, no file left over', async () => {
    const listing = await createEquipment(t.app, vendor);
    const data = await png(64, 48);
    for (let i = 0; i < 5; i++) await uploaded(listing, { data });
    const filesBefore = (await mediaFiles()).length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(listing, { data })));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(15);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    const own = await api({ method: 'GET', url: `${EQUIPMENT}/${listing.id}/`, token: vendor.token });
    expect(own.json().photos.map((p: { position: number }) => p.position)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    // two files (image and thumbnail) for each stored photo, none for a refused one
    expect((await mediaFiles()).length).toBe(filesBefore + 2 * 15);
  });
});

describe('ordering, alt text and removal', () => {
  async function listingWithPhotos(n: number) {
    const listing = await createEquipment(t.app, vendor);
    const photos = [];
    for (let i = 0; i < n; i++)
      photos.push(await uploaded(listing, { data: await png(30 + i, 20) }, `photo ${i}`));
    return { listing, ids: photos.map((p) => p.id as number) };
  }
  const order = async (listing: ListingOut) => {
    const own = await api({ method: 'GET', url: `${EQUIPMENT}/${listing.id}/`, token: vendor.token });
    return own.json().photos.map((p: { id: number; position: number }) => [p.id, p.position]);
  };
  const patch = (listing: ListingOut, id: number, payload: object) =>
    api({ method: 'PATCH', url: photoPath(listing, id), token: vendor.token, payload });

  it('moves a photo, renumbering the others 0 to n - 1', async () => {
    const { listing, ids } = await listingWithPhotos(4);
    const [a, b, c, d] = ids;
    const moved = await patch(listing, d, { position: 0 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: d, position: 0, alt: 'photo 3' });
    expect(await order(listing)).toEqual([
      [d, 0],
      [a, 1],
      [b, 2],
      [c, 3],
    ]);
    expect((await patch(listing, a, { position: 2 })).json().position).toBe(2);
    expect(await order(listing)).toEqual([
      [d, 0],
      [b, 1],
      [a, 2],
      [c, 3],
    ]);
    const beyond = await patch(listing, a, { position: 4 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().errors).toEqual({ position: ['Must be between 0 and 3.'] });
    expect((await patch(listing, a, { position: -1 })).statusCode).toBe(400);
  });

  it('changes the alt text alone, keeping the place', async () => {
    const { listing, ids } = await listingWithPhotos(2);
    const res = await patch(listing, ids[1], { alt: 'Sunset over the lagoon' });
    expect(res.json()).toMatchObject({ id: ids[1], alt: 'Sunset over the lagoon', position: 1 });
    expect((await patch(listing, ids[1], { alt: 'x'.repeat(501) })).statusCode).toBe(400);
  });

  it('deletes a photo and its files; those after it move up', async () => {
    const { listing, ids } = await listingWithPhotos(3);
    const own = await api({ method: 'GET', url: `${EQUIPMENT}/${listing.id}/`, token: vendor.token });
    const gone = own.json().photos[0];
    const files = await mediaFiles();
    for (const url of [gone.url, gone.thumbnail_url]) expect(files).toContain(url.slice('/media/'.length));

    const res = await api({ method: 'DELETE', url: photoPath(listing, ids[0]), token: vendor.token });
    expect(res.statusCode).toBe(204);
    expect(await order(listing)).toEqual([
      [ids[1], 0],
      [ids[2], 1],
    ]);
    const after = await mediaFiles();
    for (const url of [gone.url, gone.thumbnail_url]) {
      expect(after).not.toContain(url.slice('/media/'.length));
      expect((await api({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect(after.length).toBe(files.length - 2);
  });
});

describe('photos in listing objects', () => {
  it('shows them in order in the public list, detail and storefront and the own list, never stale', async () => {
    const listing = await createEquipment(t.app, vendor);
    const publicList = `/api/v1/equipment/items/?vendor_slug=${vendor.vendorSlug}`;
    const detail = `/api/v1/equipment/items/${listing.public_id}/`;
    const storefront = `/api/v1/equipment/storefront/${vendor.vendorSlug}/`;
    const ownList = `${EQUIPMENT}/?page_size=100`;
    const photosIn = async () => {
      const pick = (results: ListingOut[]) => results.find((l) => l.id === listing.id)?.photos;
      const [list, one, store, own] = await Promise.all([
        api({ method: 'GET', url: publicList }),
        api({ method: 'GET', url: detail }),
        api({ method: 'GET', url: storefront }),
        api({ method: 'GET', url: ownList, token: vendor.token }),
      ]);
      const seen = [
        pick(list.json().results),
        one.json().photos,
        pick(store.json().results),
        pick(own.json().results),
      ];
      for (const photos of seen.slice(1)) expect(photos).toEqual(seen[0]);
      return seen[0].map((p: { id: number; alt: string }) => [p.id, p.alt]);
    };
    // the caches are warm before every change
    expect(await photosIn()).toEqual([]);
    const first = await uploaded(listing, { data: await png(40, 30) }, 'first');
    expect(await photosIn()).toEqual([[first.id, 'first']]);
    const second = await uploaded(listing, { data: await png(40, 30) }, 'second');
    expect(await photosIn()).toEqual([
      [first.id, 'first'],
      [second.id, 'second'],
    ]);
    await api({
      method: 'PATCH',
      url: photoPath(listing, second.id),
      token: vendor.token,
      payload: { position: 0 },
    });
    expect(await photosIn()).toEqual([
      [second.id, 'second'],
      [first.id, 'first'],
    ]);
    await api({
      method: 'PATCH',
      url: photoPath(listing, first.id),
      token: vendor.token,
      payload: { alt: 'renamed' },
    });
    expect(await photosIn()).toEqual([
      [second.id, 'second'],
      [first.id, 'renamed'],
    ]);
    await api({ method: 'DELETE', url: photoPath(listing, second.id), token: vendor.token });
    expect(await photosIn()).toEqual([[first.id, 'renamed']]);
    const [full] = (await api({ method: 'GET', url: detail })).json().photos;
    expect(full).toMatchObject({
      width: 40,
      height: 30,
      position: 0,
      url: first.url,
      thumbnail_url: first.thumbnail_url,
    });
  });

  it('reads the photos of a whole page in one query', async () => {
    const owner = await registerVendor(t.app);
    const listings = [];
    for (let i = 0; i < 3; i++) {
      const listing = await createEquipment(t.app, owner);
      for (let j = 0; j <= i; j++)
        await api({
          method: 'POST',
          url: photosPath(listing),
          token: owner.token,
          ...(await form([{ data: await png(10 + j, 10) }])),
        });
      listings.push(listing);
    }
    let photoQueries = 0;
    const counting = t.db.withPlugin({
      transformQuery: ({ node }) => {
        if (JSON.stringify(node).includes('"listing_photos"')) photoQueries++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const deps = createCatalogDeps({
      db: counting,
      clock: t.clock,
      recordClick: async () => {
        throw new Error('no clicks here');
      },
      media: new LocalDiskStorage(t.config.mediaDir),
    });
    const { id: vendorId } = await t.db
      .selectFrom('vendor_profiles')
      .select('id')
      .where('slug', '=', owner.vendorSlug!)
      .executeTakeFirstOrThrow();
    const page = await listOwnListings(deps, EQUIPMENT_KIND, vendorId, pageOf({}));
    expect(page.results.map((l) => l.photos.length)).toEqual([3, 2, 1]);
    expect(photoQueries).toBe(1);
    const publicPage = await (
      await listPublicListings(deps, EQUIPMENT_KIND, { vendor_slug: owner.vendorSlug }, pageOf({}))
    ).read();
    expect(publicPage.results.map((l) => l.photos.map((p) => p.position))).toEqual([[0, 1, 2], [0, 1], [0]]);
    expect(photoQueries).toBe(2);
  });
});

describe('serving media', () => {
  it('serves nothing but stored files: no listing, no paths, no other names', async () => {
    for (const url of [
      '/media/',
      '/media/..%2f..%2fpackage.json',
      '/media/%2e%2e/package.json',
      '/media/x.webp',
    ])
      expect((await api({ method: 'GET', url })).statusCode, url).toBe(404);
  });

  it('keeps the rows and files consistent with the count of photos', async () => {
    expect((await mediaFiles()).length).toBe(2 * (await countRows(t.db, 'listing_photos')));
  });
});
