import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { type MediaStorage, newMediaKey } from '../../media/storage.ts';
import type { KindDescriptor } from './kinds.ts';
import * as listingsRepo from './listings.repository.ts';
import { processPhoto } from './photo-images.ts';
import * as repo from './photos.repository.ts';

// A listing's photos (decisions §16): upload, alt text, order, removal. Every write holds the listing's
// lock (the one booking requests take), so a listing's count and positions are judged one writer at a time.

/** The most photos one listing may have. */
export const MAX_PHOTOS_PER_LISTING = 20;
/** The longest alt text, in characters. */
export const MAX_ALT_LENGTH = 500;

/** A photo as the API shows it, in every listing object and as the answer of its own routes. */
export interface Photo {
  id: number;
  url: string;
  thumbnail_url: string;
  width: number;
  height: number;
  alt: string;
  /** 0 to n - 1 among the listing's n photos */
  position: number;
  created_at: string;
}

export interface PhotoDeps {
  db: Kysely<Database>;
  clock: Clock;
  media: MediaStorage;
}

function toPhoto(media: MediaStorage, row: repo.PhotoRow): Photo {
  return {
    id: row.id,
    url: media.url(row.image_key),
    thumbnail_url: media.url(row.thumbnail_key),
    width: row.width,
    height: row.height,
    alt: row.alt,
    position: row.position,
    created_at: formatDateTime(row.created_at),
  };
}

/** The photos of a page of listings, in position order by listing id (one query for the page). */
export async function photosByListing(
  db: Db,
  media: MediaStorage,
  listingIds: readonly number[],
): Promise<Map<number, Photo[]>> {
  const photos = new Map<number, Photo[]>(listingIds.map((id) => [id, []]));
  for (const row of await repo.photosOfListings(db, listingIds))
    photos.get(row.listing_id)?.push(toPhoto(media, row));
  return photos;
}

const listingNotFound = (kind: KindDescriptor) => notFound(`${kind.noun} not found.`);
const photoNotFound = () => notFound('Photo not found.');
const tooMany = () =>
  invalidFields({ file: `A listing has at most ${MAX_PHOTOS_PER_LISTING} photos: delete one first.` });

/** Takes the lock of the vendor's live listing, or 404 when the vendor has no such listing. */
async function lockListing(trx: Db, kind: KindDescriptor, vendorId: number, listingId: number) {
  if (!(await listingsRepo.lockOwnListing(trx, kind.kind, vendorId, listingId))) throw listingNotFound(kind);
}

function checkedAlt(alt: string): string {
  const text = alt.trim();
  if (text.length > MAX_ALT_LENGTH) throw invalidFields({ alt: `At most ${MAX_ALT_LENGTH} characters.` });
  return text;
}

export interface PhotoUpload {
  file: Buffer;
  alt: string;
}

/**
 * Adds a photo at the end of the listing's. `readUpload` is called once the listing is known to be the
 * vendor's and not full, so a refused request is refused before its file is read. The image is re-encoded
 * and its files written before the transaction (no slow work under the listing's lock); the count is
 * judged again under the lock, and the files are removed when the row is not committed.
 */
export async function addPhoto(
  deps: PhotoDeps,
  kind: KindDescriptor,
  vendorId: number,
  listingId: number,
  readUpload: () => Promise<PhotoUpload>,
): Promise<Photo> {
  const listing = await listingsRepo.findListing(deps.db, {
    kind: kind.kind,
    activeOnly: false,
    vendorId,
    id: listingId,
  });
  if (!listing) throw listingNotFound(kind);
  if ((await repo.countPhotos(deps.db, listingId)) >= MAX_PHOTOS_PER_LISTING) throw tooMany();
  const upload = await readUpload();
  const alt = checkedAlt(upload.alt);

  const { image, thumbnail } = await processPhoto(upload.file);
  const imageKey = newMediaKey('webp');
  const thumbnailKey = newMediaKey('webp');
  const removeFiles = () =>
    // what failed is reported, not a file that could not be removed after it
    Promise.allSettled([deps.media.delete(imageKey), deps.media.delete(thumbnailKey)]);
  try {
    await Promise.all([deps.media.put(imageKey, image.data), deps.media.put(thumbnailKey, thumbnail.data)]);
    const row = await inTransaction(deps.db, async (trx) => {
      await lockListing(trx, kind, vendorId, listingId);
      const count = await repo.countPhotos(trx, listingId);
      if (count >= MAX_PHOTOS_PER_LISTING) throw tooMany();
      const values = {
        listing_id: listingId,
        image_key: imageKey,
        thumbnail_key: thumbnailKey,
        width: image.width,
        height: image.height,
        alt,
        position: count,
        created_at: deps.clock.now().getTime(),
      };
      return { ...values, id: await repo.insertPhoto(trx, values) };
    });
    return toPhoto(deps.media, row);
  } catch (error) {
    await removeFiles();
    throw error;
  }
}

export interface PhotoChange {
  alt?: string;
  position?: number;
}

/**
 * Changes a photo's alt text and/or position. Moving a photo shifts those between its old and new place
 * by one, so positions stay 0 to n - 1 without gaps.
 */
export async function updatePhoto(
  deps: PhotoDeps,
  kind: KindDescriptor,
  vendorId: number,
  listingId: number,
  photoId: number,
  change: PhotoChange,
): Promise<Photo> {
  const alt = change.alt === undefined ? undefined : checkedAlt(change.alt);
  const row = await inTransaction(deps.db, async (trx) => {
    await lockListing(trx, kind, vendorId, listingId);
    const photo = await repo.findPhoto(trx, listingId, photoId);
    if (!photo) throw photoNotFound();
    const to = change.position;
    if (to !== undefined && to !== photo.position) {
      const last = (await repo.countPhotos(trx, listingId)) - 1;
      if (to > last) throw invalidFields({ position: `Must be between 0 and ${last}.` });
      const from = photo.position;
      if (to < from) await repo.shiftPositions(trx, listingId, { from: to, to: from - 1 }, 1);
      else await repo.shiftPositions(trx, listingId, { from: from + 1, to }, -1);
    }
    const values = { alt: alt ?? photo.alt, position: to ?? photo.position };
    await repo.updatePhoto(trx, photoId, values);
    return { ...photo, ...values };
  });
  return toPhoto(deps.media, row);
}

/** Removes a photo (those after it move up one place); its files are deleted once the removal commits. */
export async function deletePhoto(
  deps: PhotoDeps,
  kind: KindDescriptor,
  vendorId: number,
  listingId: number,
  photoId: number,
): Promise<void> {
  const photo = await inTransaction(deps.db, async (trx) => {
    await lockListing(trx, kind, vendorId, listingId);
    const found = await repo.findPhoto(trx, listingId, photoId);
    if (!found) throw photoNotFound();
    await repo.deletePhoto(trx, photoId);
    await repo.shiftPositions(trx, listingId, { from: found.position + 1 }, -1);
    return found;
  });
  await Promise.all([deps.media.delete(photo.image_key), deps.media.delete(photo.thumbnail_key)]);
}
