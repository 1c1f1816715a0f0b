import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where scripts/build-web.ts writes the bundled web app, and the server serves it from. */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
export const WEB_ASSETS = join(WEB_DIST, 'assets');
const MANIFEST = join(WEB_DIST, 'manifest.json');

/** What the HTML shell links: the entry's script and stylesheet, by their hashed names under /assets/. */
export interface WebManifest {
  script: string;
  stylesheet: string | null;
  /** chunks the entry imports statically: preloaded by the shell so they load in parallel */
  preload: string[];
}

export function readWebManifest(): WebManifest | null {
  return existsSync(MANIFEST) ? (JSON.parse(readFileSync(MANIFEST, 'utf8')) as WebManifest) : null;
}

/**
 * Written aside and renamed into place: a server starting while a build runs (`npm start` builds first;
 * test files start apps in parallel) reads the old manifest or the new one, never half of one.
 */
export function writeWebManifest(manifest: WebManifest): void {
  const written = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(written, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(written, MANIFEST);
}
