import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_STATUS, type ErrorCode, type FieldErrors } from './errors.ts';
import { fieldErrors } from './validation.ts';

export interface ErrorBody {
  detail: string;
  code: string;
  errors?: FieldErrors;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid',
  401: 'not_authenticated',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'throttled',
  503: 'service_unavailable',
};

// Errors of the database driver that mean "the database is not there right now", not "a bug".
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
  '53300', // too_many_connections
]);

function isUnavailable(error: { code?: unknown; message?: string }): boolean {
  if (typeof error.code === 'string' && UNAVAILABLE.has(error.code)) return true;
  const message = error.message ?? '';
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/.test(message);
}

/** Maps any error to a status and the decided body; 5xx details never leave the server. */
export function toErrorResponse(error: FastifyError | AppError | Error): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    const body: ErrorBody = { detail: error.message, code: error.code };
    if (error.errors) body.errors = error.errors;
    return { status: error.status, body };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return {
      status: 400,
      body: {
        detail: 'Invalid input.',
        code: 'invalid',
        errors: fieldErrors(fastifyError.validation, fastifyError.validationContext),
      },
    };
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'invalid';
    const detail =
      code === 'invalid' && fastifyError.code?.startsWith('FST_ERR_CTP')
        ? 'Malformed JSON body.'
        : fastifyError.message || 'Invalid request.';
    return { status, body: { detail, code } };
  }
  if (isUnavailable(fastifyError)) {
    return {
      status: ERROR_STATUS.service_unavailable,
      body: {
        detail: 'The service is temporarily unavailable; try again shortly.',
        code: 'service_unavailable',
      },
    };
  }
  return { status: 500, body: { detail: 'Internal server error.', code: 'server_error' } };
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route runs (a path parameter over 100
 * characters, a malformed percent-encoding) gets the same body as every other error, as a 400.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH' || error.code === 'FST_ERR_BAD_URL') {
    const detail =
      error.code === 'FST_ERR_BAD_URL'
        ? 'Malformed URL path.'
        : 'A path segment is too long (at most 100 characters).';
    reply.status(400).send({ detail, code: 'invalid' } satisfies ErrorBody);
    return;
  }
  const { status, body } = toErrorResponse(error);
  reply.status(status).send(body);
}

/**
 * The headers an error status carries, whoever sends it (the error handler, or an idempotency key's
 * replay of a kept answer): a 401 names its scheme, a 503 says when to come back.
 */
export function statusHeaders(status: number): Record<string, string> {
  if (status === 401) return { 'WWW-Authenticate': 'Bearer' };
  if (status === 503) return { 'Retry-After': '1' };
  return {};
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof AppError && error.headers) reply.headers(error.headers);
    reply.headers(statusHeaders(status));
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((_request, reply) => {
    return reply.status(404).send({ detail: 'Not found.', code: 'not_found' } satisfies ErrorBody);
  });
}
