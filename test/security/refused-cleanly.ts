import { expect } from 'vitest';
import type { TestApp } from '../helpers/build-test-app.ts';
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
