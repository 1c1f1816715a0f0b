import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Sends `count` requests one after another (a rate limit counts them in order) and answers every reply. */
export async function sendInTurn(
  count: number,
  send: (i: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  const replies: LightMyRequestResponse[] = [];
  for (let i = 0; i < count; i++) replies.push(await send(i));
  return replies;
}

/** A rate limit's refusal as decided (§1): 429, the error body with code throttled, and Retry-After. */
export function expectThrottled(reply: LightMyRequestResponse): void {
  expect(reply.statusCode).toBe(429);
  expect(reply.json()).toEqual({
    detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
    code: 'throttled',
  });
  expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
}
