import { buildWeb } from '../../scripts/build-web.ts';

// The web app the browser suites' servers serve, built once per run before any of them starts: a build
// per file would also rewrite the files another file's server is sending.
export async function setup(): Promise<void> {
  await buildWeb();
}
