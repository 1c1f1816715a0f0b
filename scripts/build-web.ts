// Bundles the web app (web/src, TypeScript + Preact) into web/dist with esbuild. `npm install` (prepare)
// and `npm start` (prestart) run it, so a fresh clone serves the app and no build output is committed.
// `--watch` rebuilds on every change while developing.
//
// Why a bundler rather than native modules: one minified, hashed file per entry and per lazily loaded page
// (the vendor dashboard and its chart library never reach a customer's phone), long-cached by name, and the
// same TypeScript checked by `tsc` as the server. esbuild takes well under a second, so it can run at start.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { WEB_ASSETS as ASSETS, type WebManifest, writeWebManifest } from '../src/web/manifest.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'web', 'src', 'main.tsx');

const options: esbuild.BuildOptions = {
  entryPoints: { app: ENTRY },
  outdir: ASSETS,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['chrome111', 'firefox111', 'safari16.4'],
  minify: true,
  sourcemap: 'linked',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'linked',
};

function writeManifest(metafile: esbuild.Metafile): void {
  const assetName = (path: string) => relative(ASSETS, join(ROOT, path));
  // lazily imported pages are entry points of their own too: the app's is the one built from ENTRY
  const [entryPath, entry] =
    Object.entries(metafile.outputs).find(([, out]) => out.entryPoint === relative(ROOT, ENTRY)) ?? [];
  if (!entryPath || !entry) throw new Error('esbuild produced no entry script');
  const manifest: WebManifest = {
    script: assetName(entryPath),
    stylesheet: entry.cssBundle ? assetName(entry.cssBundle) : null,
    preload: entry.imports.filter((i) => i.kind === 'import-statement').map((i) => assetName(i.path)),
  };
  writeWebManifest(manifest);
  const outputs = Object.keys(metafile.outputs).map(assetName);
  const twins = writeCompressedTwins(outputs);
  // files of earlier builds go, so the directory holds exactly what the manifest's build needs
  const current = new Set([...outputs, ...twins]);
  for (const name of readdirSync(ASSETS)) if (!current.has(name)) rmSync(join(ASSETS, name));
}

/** What the browser downloads: scripts and stylesheets (source maps only load with the developer tools open). */
const COMPRESSIBLE = /\.(js|css)$/;

/**
 * A Brotli (`.br`) and a gzip (`.gz`) twin of each script and stylesheet, compressed once here at the
 * highest levels, which would be too slow per request; the server sends the twin the browser accepts
 * (@fastify/static preCompressed). Returns the twins' names.
 */
function writeCompressedTwins(names: readonly string[]): string[] {
  const twins: string[] = [];
  for (const name of names.filter((n) => COMPRESSIBLE.test(n))) {
    const data = readFileSync(join(ASSETS, name));
    const brotli = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    writeFileSync(join(ASSETS, `${name}.br`), brotli);
    writeFileSync(join(ASSETS, `${name}.gz`), gzipSync(data, { level: constants.Z_BEST_COMPRESSION }));
    twins.push(`${name}.br`, `${name}.gz`);
  }
  return twins;
}

const manifestPlugin: esbuild.Plugin = {
  name: 'manifest',
  setup(build) {
    build.onEnd((result) => {
      if (result.metafile && result.errors.length === 0) writeManifest(result.metafile);
    });
  },
};

/**
 * `import href from 'x.css?url'`: the file copied beside the assets under a hashed name and its URL
 * imported. esbuild links only the entry's stylesheet from the shell; a lazily loaded page whose library
 * brings a stylesheet (the dashboard's chart) links that file itself, when it is first shown.
 */
const fileUrlPlugin: esbuild.Plugin = {
  name: 'file-url',
  setup(build) {
    build.onResolve({ filter: /\?url$/ }, async (args) => {
      const resolved = await build.resolve(args.path.slice(0, -'?url'.length), {
        kind: args.kind,
        resolveDir: args.resolveDir,
      });
      return resolved.errors.length
        ? { errors: resolved.errors }
        : { path: resolved.path, namespace: 'file-url' };
    });
    build.onLoad({ filter: /.*/, namespace: 'file-url' }, async (args) => ({
      contents: await readFile(args.path),
      loader: 'file',
    }));
  },
};

export async function buildWeb(watch = false): Promise<void> {
  const config = { ...options, plugins: [manifestPlugin, fileUrlPlugin] };
  if (watch) {
    const context = await esbuild.context(config);
    await context.watch();
    console.log('web: watching web/src');
    return;
  }
  await esbuild.build(config);
}

if (import.meta.main) {
  buildWeb(process.argv.includes('--watch')).catch(() => {
    // esbuild has already printed the errors
    process.exit(1);
  });
}
