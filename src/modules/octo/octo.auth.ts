import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { type ChannelIdentity, findChannelByKey } from '../channels/index.ts';
import { forbidden, unauthorized } from './octo.errors.ts';

// Who calls /octo/v1/: the channel whose key the request carries as `Authorization: Bearer <api_key>`
// (decisions §24). No key → 401 UNAUTHORIZED; a key that is no active channel's (unknown, rotated out,
// or of a deactivated channel) → 403 FORBIDDEN. The key is looked up by its hash, so no stored secret is
// compared with what the caller sent. Everything the request then reads or writes is the channel's
// vendor's (the service takes the channel, never a vendor id from the request).

declare module 'fastify' {
  interface FastifyRequest {
    /** the OCTO caller, set by the /octo/v1/ authentication hook */
    channel: ChannelIdentity | null;
  }
}

/** The key of an `Authorization: Bearer <key>` header; null when there is none or it is not Bearer. */
export function bearerKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** Sets request.channel from the request's key, or throws OCTO's 401 or 403. */
export async function authenticateChannel(db: Db, request: FastifyRequest): Promise<ChannelIdentity> {
  const key = bearerKey(request.headers.authorization);
  if (key === null) throw unauthorized();
  const channel = await findChannelByKey(db, key);
  if (!channel) throw forbidden();
  request.channel = channel;
  return channel;
}

/** The authenticated channel of an /octo/v1/ request. */
export function channelOf(request: FastifyRequest): ChannelIdentity {
  if (!request.channel) throw unauthorized();
  return request.channel;
}
