import { Type } from 'typebox';
import { DateTimeOut, Named } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { IMAGE_WIDTH, MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, THUMBNAIL_WIDTH } from './photo-images.ts';
import { MAX_ALT_LENGTH, MAX_PHOTOS_PER_LISTING } from './photos.service.ts';

const ALT = Type.String({
  maxLength: MAX_ALT_LENGTH,
  description: 'text describing the photo for those who cannot see it (screen readers); trimmed',
});

export const PhotoSchema = Named(
  'ListingPhoto',
  Type.Object(
    {
      id: Type.Integer(),
      url: Type.String({
        description:
          `the image, re-encoded as WebP without metadata, at most ${IMAGE_WIDTH} px wide (never upscaled); ` +
          'a path on this server, never changed once given, so it may be cached for good',
      }),
      thumbnail_url: Type.String({ description: `the same image at most ${THUMBNAIL_WIDTH} px wide` }),
      width: Type.Integer({ description: 'of the image at url, in pixels' }),
      height: Type.Integer({ description: 'of the image at url, in pixels' }),
      alt: Type.String(),
      position: Type.Integer({ description: "0 to n - 1 among the listing's n photos; shown in that order" }),
      created_at: DateTimeOut,
    },
    {
      description: 'A photo of a listing (decisions §16).',
      examples: [
        {
          id: 3,
          url: '/media/Yp3kq1nJ6cE0wW0q2xW0Lw.webp',
          thumbnail_url: '/media/M1b6dS8Fv0l3f1yD9eGJrA.webp',
          width: 1600,
          height: 1067,
          alt: 'Two red touring kayaks on the beach',
          position: 0,
          created_at: '2026-05-01T09:30:00.000Z',
        },
      ],
    },
  ),
);

export const photoSchemas = {
  params: Type.Object({
    id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
    photo_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  }),
  /** for the document only: the upload route reads the multipart stream itself (photos.routes.ts) */
  uploadBody: Type.Object(
    {
      file: Type.String({
        format: 'binary',
        description:
          `a JPEG, PNG or WebP image (judged by its content), at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB ` +
          `and ${MAX_PHOTO_PIXELS / 1_000_000} million pixels; turned upright by its EXIF orientation`,
      }),
      alt: Type.Optional(ALT),
    },
    {
      description:
        `multipart/form-data with exactly one file. A listing has at most ${MAX_PHOTOS_PER_LISTING} photos; ` +
        'the new one comes last. Every refusal of the upload is a 400 naming file (or alt), also for a ' +
        'file over the size limit. An Idempotency-Key identifies an upload by its method and path only: ' +
        'the file is not compared.',
      examples: [{ file: '(the image file)', alt: 'Two red touring kayaks on the beach' }],
    },
  ),
  patchBody: Type.Object(
    {
      alt: Type.Optional(ALT),
      position: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_PHOTOS_PER_LISTING - 1,
          description:
            'the new place, 0 to n - 1: the photos between the old and the new place move by one, so ' +
            'positions stay 0 to n - 1 without gaps',
        }),
      ),
    },
    { examples: [{ alt: 'Sunset over the lagoon', position: 0 }] },
  ),
};
