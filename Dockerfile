# Production image: Node 24 runs the TypeScript sources directly (type stripping); the only build step
# bundles the web app's pages. Alone it migrates at start; compose.yaml runs its CLI once
# (`node src/cli.ts migrate`) and then its server as two instances with MIGRATE_ON_START=false.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; the `node` dev dependency is not needed where the image brings Node 24.
# `npm install` with the committed lockfile (pinned versions), not `npm ci`: the lockfile lists only the
# linux builds of Biome's per-platform packages, and `npm ci` refuses it as out of sync even with
# --omit=dev (checked here with `npm ci --omit=dev --dry-run`; see .ci/run).
RUN npm install --omit=dev --no-audit --no-fund
# The web app, bundled once for the image (esbuild and the page libraries are production dependencies).
COPY tsconfig.json ./
COPY scripts/build-web.ts ./scripts/
COPY src/web/manifest.ts ./src/web/
COPY web ./web
RUN node scripts/build-web.ts

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite:/data/app.sqlite \
    MEDIA_DIR=/data/media \
    MAIL_DIR=/data/mail \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache \
    MALLOC_ARENA_MAX=1
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/web/dist ./web/dist
COPY package.json ./
COPY src ./src
COPY scripts/compile-cache.ts ./scripts/
RUN mkdir -p /data && chown node:node /data
USER node
# Fill the compile cache in the image: a container's first start then strips no types (see
# scripts/compile-cache.ts: ~12 MB less resident for the life of the process).
RUN node scripts/compile-cache.ts
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# node directly (not npm) so SIGTERM reaches the server, which drains in-flight requests and exits 0;
# the heap and GC flags and MALLOC_ARENA_MAX are those of `npm start` (package.json), which keep the peak RSS
# under 200 MB.
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--no-allocation-site-pretenuring", "src/server.ts"]
