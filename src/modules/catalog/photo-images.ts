import pLimit from 'p-limit';
import type { Sharp, default as sharpFactory } from 'sharp';
import { invalidFields } from '../../http/errors.ts';

// How an uploaded photo becomes the stored image and thumbnail (decisions §16).

/** The largest upload: bytes of the file. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** The most pixels an upload may declare: decoding is refused above it, before any pixel is read. */
export const MAX_PHOTO_PIXELS = 40_000_000;
/** Widest stored image and thumbnail; smaller uploads keep their width (never upscaled). */
export const IMAGE_WIDTH = 1600;
export const THUMBNAIL_WIDTH = 400;
/** WebP: smaller than JPEG at the same quality, shown by every current browser, alpha kept. */
const WEBP_QUALITY = 82;

/** The formats accepted, as the decoder names them. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);

type SharpFactory = typeof sharpFactory;
let sharpLoaded: Promise<SharpFactory> | undefined;

/**
 * sharp, and the libvips inside it, loaded at the first upload: a server process that never takes one
 * never carries the native library, its memory or its threads.
 */
function loadSharp(): Promise<SharpFactory> {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    // Only the three accepted formats are ever decoded, and only from memory: an upload in any other
    // format (SVG, TIFF, HEIF, GIF, ...) never reaches a parser. This holds for the whole process.
    sharp.block({ operation: ['VipsForeignLoad'] });
    sharp.unblock({
      operation: ['VipsForeignLoadJpegBuffer', 'VipsForeignLoadPngBuffer', 'VipsForeignLoadWebpBuffer'],
    });
    // Each upload is decoded once: libvips' cache of decoded images would only hold memory.
    sharp.cache(false);
    return sharp;
  });
  return sharpLoaded;
}

// One upload at a time: a decoded image of the largest size takes far more memory than the file, all of it
// outside the JavaScript heap, so a burst of uploads queues instead of adding up in the server's peak RSS
// (as password hashes do, accounts/passwords.ts). libvips still spreads each image over its threads.
const processing = pLimit(1);

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface ProcessedPhoto {
  image: EncodedImage;
  thumbnail: EncodedImage;
}

const refused = (message: string) => invalidFields({ file: message });

/**
 * The stored forms of an upload, judged by its decoded content (never its name or declared type): turned
 * upright by its EXIF orientation, every metadata block dropped (EXIF with any GPS position, XMP, IPTC,
 * colour profiles: pixels are converted to sRGB), at most IMAGE_WIDTH and THUMBNAIL_WIDTH wide, as WebP.
 * Anything else than a decodable JPEG, PNG or WebP of at most MAX_PHOTO_PIXELS is a 400 on `file`.
 */
export function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  return processing(() => processNow(bytes));
}

async function processNow(bytes: Buffer): Promise<ProcessedPhoto> {
  const sharp = await loadSharp();
  let format: string | undefined;
  let pixels: number;
  try {
    // the header only: the size it declares is judged here, with a message saying so
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = metadata.format;
    pixels = metadata.width * metadata.height;
  } catch {
    throw refused('Upload a JPEG, PNG or WebP image.');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw refused('Upload a JPEG, PNG or WebP image.');
  if (pixels > MAX_PHOTO_PIXELS)
    throw refused(`The image has more than ${MAX_PHOTO_PIXELS / 1_000_000} million pixels.`);
  let image: EncodedImage;
  try {
    // the decoder keeps the limit too, whatever the header said
    image = await encode(
      sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error' }).autoOrient(),
      IMAGE_WIDTH,
    );
  } catch {
    // the header was readable, the pixels were not (a truncated or corrupt file)
    throw refused('The image could not be decoded.');
  }
  // from the stored image, already upright and without metadata: the upload is decoded once
  return { image, thumbnail: await encode(sharp(image.data), THUMBNAIL_WIDTH) };
}

async function encode(input: Sharp, width: number): Promise<EncodedImage> {
  const { data, info } = await input
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: WEBP_QUALITY })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
