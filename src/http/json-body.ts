import type { FastifyInstance } from 'fastify';
import { invalidFields } from './errors.ts';

// The one way the server reads a JSON body. Fastify's own parser turns the text into a value (it drops a
// leading byte-order mark and refuses prototype pollution); the value is then checked for depth here, once,
// so that nothing recursive after it (the schema validation, the idempotency fingerprint's canonical
// stringify, JSON.stringify of stored free-form objects, the response serializer) meets a body deep enough
// to exhaust the stack. Every part of the server reads `request.body`, the value the handler sees; the raw
// text is kept only for the payment webhook, whose signature covers the exact bytes.

/**
 * The deepest nesting of objects and arrays a JSON body may have: `{}` is 1, `{"a":[1]}` is 2. Far above
 * any body the API takes (its deepest, a listing's free-form `details`, is a few levels), far below what
 * a recursive walk can take.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests objects and arrays more than `limit` levels deep. Walks the value with
 * a stack of its own (never recursing), and stops at the first container past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const inner of Object.values(node)) {
      if (typeof inner === 'object' && inner !== null) pending.push([inner, depth + 1]);
    }
  }
  return false;
}

export const tooDeep = () =>
  invalidFields(
    { body: `Nested more than ${MAX_JSON_DEPTH} levels deep.` },
    `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
  );

/**
 * Makes `application/json` the only body type (anything else is 415, decisions §1): an empty body means
 * "no body" (a POST approve/ with no fields), malformed JSON is 400 (Fastify's error), and a body nested
 * past MAX_JSON_DEPTH is 400 `invalid`.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text === '') return done(null, undefined);
    parseJson(request, text, (error, value) => {
      if (error) return done(error);
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return done(tooDeep());
      done(null, value);
    });
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The exact text of a JSON body, for the payment webhook's signature only: everything else reads
     * `request.body`, the parsed value the handler sees.
     */
    rawBody?: string;
  }
}
