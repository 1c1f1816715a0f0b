import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../http/errors.ts';
import { contentTypeOf, type LocalDiskStorage } from './storage.ts';

/** A stored file's key never names another file: browsers and proxies may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The local disk's files at /media/{key}. Only a name shaped like a key is looked up (no path, no dot
 * file, no listing of the directory): anything else is a 404, as an unknown key is.
 */
export const mediaRoutes: FastifyPluginAsync<{ storage: LocalDiskStorage }> = async (app, { storage }) => {
  app.get(
    '/:key',
    {
      config: { auth: 'public' },
      schema: { hide: true },
    },
    async (request, reply) => {
      const { key } = request.params as { key: string };
      const file = await storage.read(key);
      if (!file) throw notFound('No such file.');
      return reply
        .header('cache-control', IMMUTABLE)
        .header('content-length', file.size)
        .type(contentTypeOf(key))
        .send(file.stream);
    },
  );
};
