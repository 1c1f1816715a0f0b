import type { FastifyRequest } from 'fastify';

/**
 * Where a request came from, as evidence a record keeps (a waiver's acceptance): the client address as
 * Fastify resolves it (behind a trusted proxy, the forwarded one: config `trustProxy`) and the User-Agent.
 */
export const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});
