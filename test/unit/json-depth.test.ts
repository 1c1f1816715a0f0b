import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-body.ts';
import { DetailCache } from '../../src/lib/versioned-cache.ts';

// The depth bound on JSON bodies (src/http/json-body.ts), against a plain recursive definition of depth on
// values small enough for recursion.

/** Levels of objects and arrays: a scalar 0, `[]` and `{}` 1, `{"a":[1]}` 2. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/** `levels` arrays inside each other around a scalar, parsed (so never built by recursion here). */
const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}0${']'.repeat(levels)}`);

describe('nestsDeeperThan', () => {
  it('agrees with the recursive depth on any JSON value and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, limit) => {
        expect(nestsDeeperThan(value, limit)).toBe(depthOf(value) > limit);
      }),
    );
  });

  it('counts the deepest branch, wherever it is among shallow ones', () => {
    fc.assert(
      fc.property(
        // the shallow siblings are 4 levels deep
        fc.integer({ min: 4, max: 2 * MAX_JSON_DEPTH }),
        fc.integer({ min: 0, max: 20 }),
        (levels, position) => {
          const siblings: unknown[] = Array.from({ length: 20 }, (_, i) => ({ i, tags: ['a', [i]] }));
          siblings.splice(position, 0, { deep: nested(levels - 2) });
          // the array, the object holding `deep`, then levels - 2 arrays
          expect(nestsDeeperThan(siblings, MAX_JSON_DEPTH)).toBe(levels > MAX_JSON_DEPTH);
        },
      ),
    );
  });

  it('walks a value far deeper than any stack without failing', () => {
    expect(nestsDeeperThan(nested(500_000), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('a cached value', () => {
  it('is frozen all the way down, however deep (no recursion)', () => {
    const cache = new DetailCache<{ details: unknown }>();
    const details = nested(200_000);
    cache.set('k', 1, { details });
    let node = cache.get('k', 1)!.details as unknown[];
    for (let level = 0; level < 200_000; level++) {
      expect(Object.isFrozen(node)).toBe(true);
      node = node[0] as unknown[];
    }
  });
});
