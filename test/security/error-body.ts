import type { LightMyRequestResponse } from 'fastify';
import { ERROR_STATUS } from '../../src/http/errors.ts';

/**
 * What is wrong with an error response, or null when it is the decided body
 * `{detail: string, code: string, errors?: {field: string[]}}` with a code that belongs to its status.
 */
export function errorBodyProblem(
  res: Pick<LightMyRequestResponse, 'statusCode' | 'body' | 'headers'>,
): string | null {
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json'))
    return `content-type ${res.headers['content-type']}`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${res.body.slice(0, 200)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `body is not an object`;
  const { detail, code, errors, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length) return `unexpected keys ${Object.keys(rest).join(', ')}`;
  if (typeof detail !== 'string' || !detail) return 'detail is not a non-empty string';
  if (typeof code !== 'string') return 'code is not a string';
  const expected = ERROR_STATUS[code as keyof typeof ERROR_STATUS];
  if (expected !== res.statusCode) return `code ${code} does not belong to status ${res.statusCode}`;
  if (errors !== undefined) {
    if (typeof errors !== 'object' || errors === null || Array.isArray(errors))
      return 'errors is not an object';
    for (const [field, messages] of Object.entries(errors)) {
      if (!Array.isArray(messages) || !messages.length || messages.some((m) => typeof m !== 'string'))
        return `errors.${field} is not a list of strings`;
    }
  }
  if (res.statusCode === 401 && res.headers['www-authenticate'] !== 'Bearer')
    return '401 without WWW-Authenticate';
  if (res.statusCode >= 500 && /select|insert|update|at .*\.ts/i.test(detail))
    return 'server detail leaks internals';
  return null;
}
