import type { FastifyPluginAsync } from 'fastify';
import { categoriesRoutes } from './categories.routes.ts';
import { KINDS } from './kinds.ts';
import { ListingResponses } from './listings.responses.ts';
import { listingRoutes } from './listings.routes.ts';
import type { CatalogDeps } from './listings.service.ts';
import { photoRoutes } from './photos.routes.ts';

/** Categories and, per listing kind, the same routes (listings and their photos) under the kind's path segment and its aliases. */
export const catalogRoutes: FastifyPluginAsync<{ deps: CatalogDeps }> = async (app, { deps }) => {
  await app.register(categoriesRoutes, { deps });
  const responses = new ListingResponses();
  for (const kind of Object.values(KINDS)) {
    await app.register(listingRoutes, { prefix: `/${kind.pathSegment}`, deps, responses, kind });
    await app.register(photoRoutes, { prefix: `/${kind.pathSegment}`, deps, kind });
    for (const alias of kind.pathAliases) {
      await app.register(listingRoutes, { prefix: `/${alias}`, deps, responses, kind, hidden: true });
      await app.register(photoRoutes, { prefix: `/${alias}`, deps, kind, hidden: true });
    }
  }
};
