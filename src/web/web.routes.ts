import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readWebManifest, WEB_ASSETS, type WebManifest } from './manifest.ts';

// The web app's server side: its built assets and one HTML shell for every page path. The pages are a
// client of the public API only (web/src); nothing here reads the database.

/** Page paths of the customer site, the vendor dashboard and the embeddable storefront. */
const PAGE_ROUTES = [
  '/',
  '/login',
  '/signup',
  '/account',
  '/forgot-password',
  '/reset-password',
  '/join',
  '/bookings',
  '/bookings/:id',
  '/equipment/:public_id',
  '/adventures/:public_id',
  '/v/:slug',
  '/vendor',
  '/vendor/*',
];
const EMBED_ROUTES = ['/embed/:slug', '/embed/:slug/*'];

/**
 * No inline script or style anywhere: the shell links hashed files only, so `'self'` is the whole policy.
 * Only the embeddable storefront may be framed, by any site (it is meant for the vendor's own pages).
 */
function contentSecurityPolicy(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function shell(manifest: WebManifest): string {
  const asset = (name: string) => escapeAttribute(`/assets/${name}`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Waterbook</title>',
    // no icon file yet: an empty one spares every page load a 404 for /favicon.ico
    '<link rel="icon" href="data:,">',
    '<meta name="description" content="Book kayaks, paddleboards, dives and boat tours.">',
    manifest.stylesheet ? `<link rel="stylesheet" href="${asset(manifest.stylesheet)}">` : '',
    ...manifest.preload.map((name) => `<link rel="modulepreload" href="${asset(name)}">`),
    `<script type="module" src="${asset(manifest.script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>Waterbook needs JavaScript to show listings and take bookings.</noscript>',
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n');
}

export async function webRoutes(app: FastifyInstance): Promise<void> {
  const manifest = readWebManifest();
  if (!manifest) app.log.warn('web app not built (run `npm run build:web`): its pages answer 503');

  // Names carry a content hash: a file never changes under its name, so browsers keep it for a year.
  await app.register(fastifyStatic, {
    root: WEB_ASSETS,
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    // the build's .br and .gz twins (scripts/build-web.ts), sent to browsers that accept them
    preCompressed: true,
    index: false,
    // served by the route below, which declares its auth rule and page kind as every route must
    serve: false,
  });
  app.get(
    '/assets/*',
    { config: { auth: 'public', webPage: true }, schema: { hide: true } },
    (request, reply) => reply.sendFile((request.params as { '*': string })['*']),
  );

  const page = (frameAncestors: string, embeddable: boolean) => {
    const policy = contentSecurityPolicy(frameAncestors);
    const html = manifest ? shell(manifest) : null;
    return async (_request: unknown, reply: FastifyReply) => {
      reply.header('content-security-policy', policy);
      // the shell is small and names the current build's files: never cached, so a deploy shows at once
      reply.header('cache-control', 'no-cache');
      if (embeddable) reply.removeHeader('x-frame-options');
      else reply.header('x-frame-options', 'DENY');
      if (!html)
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built: run `npm run build:web`.');
      return reply.type('text/html; charset=utf-8').send(html);
    };
  };
  const routeConfig = { config: { auth: 'public' as const, webPage: true }, schema: { hide: true } };
  for (const url of PAGE_ROUTES) app.get(url, routeConfig, page("'none'", false));
  for (const url of EMBED_ROUTES) app.get(url, routeConfig, page('*', true));
}
