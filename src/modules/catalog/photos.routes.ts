import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import { AppError, invalidFields } from '../../http/errors.ts';
import { Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import { validatorCompiler } from '../../http/validation.ts';
import type { KindDescriptor } from './kinds.ts';
import { vendorIdOf } from './listings.routes.ts';
import type { CatalogDeps } from './listings.service.ts';
import { MAX_PHOTO_BYTES } from './photo-images.ts';
import { PhotoSchema, photoSchemas as s } from './photos.schemas.ts';
import * as photos from './photos.service.ts';

export interface PhotoRoutesOptions {
  deps: CatalogDeps;
  kind: KindDescriptor;
  /** an alias prefix: served, but left out of the OpenAPI document */
  hidden?: boolean;
}

// Fields other than `alt` are ignored, as unknown members of a JSON body are; the limits bound what they
// may cost (a field's text is held in memory until the body is read).
const MAX_FORM_FIELDS = 100;
const MULTIPART_LIMITS = {
  files: 1,
  fileSize: MAX_PHOTO_BYTES,
  // `alt` in UTF-8
  fieldSize: 4 * photos.MAX_ALT_LENGTH,
  fields: MAX_FORM_FIELDS,
  parts: MAX_FORM_FIELDS + 1,
};

// What the multipart parser's refusals mean to the client: each is a 400 naming `file`, never a 413.
const MULTIPART_REFUSALS: Record<string, string> = {
  FST_REQ_FILE_TOO_LARGE: `At most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB.`,
  FST_FILES_LIMIT: 'Send exactly one file.',
  FST_FIELDS_LIMIT: 'Too many form fields.',
  FST_PARTS_LIMIT: 'Too many form fields.',
};

/**
 * The upload's file and alt text, read from the multipart stream: exactly one file, in the field `file`.
 * Whatever the parser refuses (limits, a malformed body) is a 400 on `file`.
 */
async function readUpload(request: FastifyRequest): Promise<photos.PhotoUpload> {
  if (!request.isMultipart())
    throw new AppError('unsupported_media_type', 'Send the photo as multipart/form-data.');
  let file: Buffer | undefined;
  let alt = '';
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw invalidFields({ file: 'Send the image in the field "file".' });
        file = await part.toBuffer();
      } else if (part.fieldname === 'alt') {
        if (typeof part.value !== 'string' || part.valueTruncated)
          throw invalidFields({ alt: `Text of at most ${photos.MAX_ALT_LENGTH} characters.` });
        alt = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code ?? '';
    throw invalidFields({ file: MULTIPART_REFUSALS[code] ?? 'The multipart body could not be read.' });
  }
  if (!file) throw invalidFields({ file: 'This field is required.' });
  return { file, alt };
}

// The upload's body schema documents the form; the route reads the stream itself (readUpload), so
// nothing validates a parsed body against it. Its path parameters are validated as everywhere.
const uploadValidatorCompiler: FastifySchemaCompiler<object> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/**
 * A listing's photos (decisions §16): upload, change, delete. Registered per kind and alias prefix; the
 * multipart parser exists only in the upload's own context, so every other route keeps refusing any body
 * but JSON (415).
 */
export const photoRoutes: FastifyPluginAsyncTypebox<PhotoRoutesOptions> = async (
  app,
  { deps, kind, hidden = false },
) => {
  const tags = [kind.tag];
  const base = `/vendor/${kind.collection}/:id/photos`;
  const listing = kind.noun.toLowerCase();
  const doc = <T extends FastifySchema>(schema: T): T => (hidden ? { ...schema, hide: true } : schema);

  await app.register(async (upload) => {
    await upload.register(multipart, { limits: MULTIPART_LIMITS });
    upload.post(
      `${base}/`,
      {
        config: { auth: 'vendor', roles: MANAGERS },
        validatorCompiler: uploadValidatorCompiler,
        schema: doc({
          tags,
          summary: `Upload a photo of one of the caller's ${kind.plural}`,
          consumes: ['multipart/form-data'],
          params: Type.Object({ id: s.params.properties.id }),
          body: s.uploadBody,
          response: { 201: Ref(PhotoSchema) },
        }),
      },
      async (request, reply) => {
        const { id } = request.params as { id: number };
        const photo = await photos.addPhoto(deps, kind, vendorIdOf(request), id, () => readUpload(request));
        return reply.status(201).send(photo);
      },
    );
  });

  app.patch(
    `${base}/:photo_id/`,
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: `Change the alt text or position of a photo of ${listing}`,
        params: s.params,
        body: s.patchBody,
        response: { 200: Ref(PhotoSchema) },
      }),
    },
    async (request) =>
      photos.updatePhoto(
        deps,
        kind,
        vendorIdOf(request),
        request.params.id,
        request.params.photo_id,
        request.body,
      ),
  );

  app.delete(
    `${base}/:photo_id/`,
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: `Delete a photo of ${listing}`,
        description: 'The photos after it move up one place; its files are removed.',
        params: s.params,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      }),
    },
    async (request, reply) => {
      await photos.deletePhoto(deps, kind, vendorIdOf(request), request.params.id, request.params.photo_id);
      return reply.status(204).send(null);
    },
  );
};
