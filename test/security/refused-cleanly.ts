import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { installChangeCounter } from '../helpers/db-changes.ts';
import { errorBodyProblem } from './error-body.ts';

type Answer = Awaited<ReturnType<TestApp['app']['inject']>>;

/**
 * A check that an answer is one of `allowed`, never a 5xx, and when a refusal, of the decided shape and
 * having changed nothing (`changes` counts committed row changes; `before` is its count before the request).
 */
export function refusalChecker(changes: () => Promise<number>) {
  return async (res: Answer, before: number, allowed: number[]) => {
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(allowed, res.body).toContain(res.statusCode);
    if (res.statusCode >= 400) {
      expect(errorBodyProblem(res), res.body).toBeNull();
      expect(await changes()).toBe(before);
    }
  };
}

/**
 * A fuzz suite's app, made before its tests and closed after them, with the count of committed row changes
 * and the refusal check bound to it. Read `t` inside hooks and tests, once the suite is set up.
 */
export function fuzzSuite() {
  const suite = {
    t: undefined as unknown as TestApp,
    read: undefined as unknown as () => Promise<number>,
    changes: () => suite.read(),
    refusedCleanly: (res: Answer, before: number, allowed: number[]) =>
      refusalChecker(suite.changes)(res, before, allowed),
  };
  beforeAll(async () => {
    suite.t = await buildTestApp();
    suite.read = (await installChangeCounter(suite.t.db, suite.t.dialect)).read;
  });
  afterAll(() => suite.t?.close());
  return suite;
}

/**
 * The members a 400 names; none when the body was refused as a whole (a generated `__proto__` key: the
 * JSON parser refuses such a body, 400 `invalid` naming no member).
 */
export const fieldsOf = (res: { json(): { errors?: object } }) => Object.keys(res.json().errors ?? {});

/** A body member that generated input may leave out. */
export const member = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
