import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layering rules of docs/architecture.md, checked on every import: no circle among the server's or the
// web app's files, and no import from a lower layer to a higher one. The graph is read with a regular
// expression rather than with dependency-cruiser or madge: both parse TypeScript through the `typescript`
// package's JavaScript API, which the project's TypeScript 7 (the native compiler) no longer has.

const ROOT = resolve(import.meta.dirname, '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each file (relative to the repository) → the files it imports (relative imports only). */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(ROOT, dir))) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) =>
      relative(ROOT, resolve(dirname(file), match[1])),
    );
    graph.set(relative(ROOT, file), targets);
  }
  return graph;
}

/** Every import circle, each as the path of files that closes it (depth-first search, three colours). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('import graph', () => {
  it('finds a circle when there is one, and none in a chain', () => {
    const chain = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', []],
    ]);
    expect(circles(chain)).toEqual([]);
    chain.set('c', ['a']);
    expect(circles(chain)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it.each(['src', 'web/src'])('has no import circle in %s', (dir) => {
    const graph = importGraph(dir);
    expect(graph.size).toBeGreaterThan(20);
    expect(circles(graph)).toEqual([]);
  });

  it('never imports up a layer: the database and the helpers know nothing of HTTP or the modules', () => {
    const upward = [...importGraph('src')].flatMap(([file, targets]) =>
      /^src\/(db|lib)\//.test(file)
        ? targets.filter((target) => /^src\/(http|modules)\//.test(target)).map((t) => `${file} → ${t}`)
        : [],
    );
    expect(upward).toEqual([]);
  });
});
