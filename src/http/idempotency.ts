import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import type { Kysely } from 'kysely';
import { stringify } from 'safe-stable-stringify';
import type { Database } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { DAY_MS, HOUR_MS } from '../lib/datetime.ts';
import type { AuthRule } from './auth.ts';
import { type OwnerTag, ownerIsGone, ownerTagOf, startTimeOf } from './claim-owner.ts';
import { statusHeaders } from './error-handler.ts';
import { AppError, invalidFields } from './errors.ts';
import {
  type ClaimRef,
  deleteExpiredKey,
  deleteExpiredKeys,
  deleteKeyClaim,
  findKey,
  insertKeyClaim,
  type StoredKey,
  storeKeyResponse,
  takeOverClaim,
} from './idempotency.repository.ts';

// Idempotency keys (decisions §13): an authenticated POST sent with `Idempotency-Key` runs once; the same
// request sent again with the key gets the first answer back. The key is claimed by inserting a row after
// authentication and validation (a preHandler runs after both), so a request refused by either leaves the
// key free; the unique index on (user, key) picks one winner among simultaneous requests, in every server
// process on the database. The answer is written to the row as it is sent (onSend), before the client can
// retry, or the claim is deleted when the answer is not one to keep.

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key holds its answer; after that the key is free again. */
export const KEY_TTL_MS = DAY_MS;
/**
 * How long a claim without an answer stands when nothing proves its process dead. A claim whose process
 * has certainly ended (claim-owner.ts: it ran on this kernel and pid namespace, and its pid runs nothing
 * or another process) is lost at once, and the next request with the key runs in its place. Any other
 * (a process on another machine or container, a claim whose answer could not be recorded) is taken to be
 * lost past this; without it, a crash would leave the key answering 409 for its whole lifetime. Set well
 * beyond what a request runs: its queries are bounded by the database's statement timeout
 * (db/postgres.ts) and it makes at most one gateway call.
 */
export const CLAIM_TIMEOUT_MS = 90_000;
/** How often one server process deletes expired keys (on the first keyed request after the interval). */
const PURGE_INTERVAL_MS = HOUR_MS;
/** 1 to 255 printable ASCII characters (space to tilde). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
const HEADER_NAME = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const CLAIM_ATTEMPTS = 3;

const keyInUse = () =>
  new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry later.',
  );

/**
 * The routes that take the header: every POST that needs an authenticated caller, but those of the OCTO
 * API (a reseller's reservation is made idempotent by its own uuid, decisions §24) and those whose answer
 * shows a secret once (`showsSecret`: a channel's key), which must not be kept in clear for a replay.
 */
export function takesIdempotencyKey(
  method: string | string[],
  auth: AuthRule | undefined,
  showsSecret = false,
): boolean {
  return (
    auth !== undefined &&
    auth !== 'public' &&
    auth !== 'channel' &&
    !showsSecret &&
    [method].flat().includes('POST')
  );
}

/**
 * Answers not kept, as at Stripe: a 400 (the input was refused, whether by the schema or by the service),
 * a 409 (a conflict another attempt may not meet), a 429 and every 5xx. A retry of those runs anew.
 */
export function isKeptStatus(status: number): boolean {
  return status < 500 && status !== 400 && status !== 409 && status !== 429;
}

export interface IdempotencyDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/**
 * Whether a claim without an answer still blocks its key at `now`: until CLAIM_TIMEOUT_MS has passed,
 * unless its process has certainly ended (ownerIsGone).
 */
export function claimStands(
  stored: Pick<StoredKey, 'created_at' | 'claimed_by'>,
  self: OwnerTag | null,
  now: number,
  startTime = startTimeOf,
): boolean {
  return stored.created_at > now - CLAIM_TIMEOUT_MS && !ownerIsGone(stored.claimed_by, self, startTime);
}

/** Adds the claim and the recording of the answer to every route that takes the header. */
export function registerIdempotency(app: FastifyInstance, deps: IdempotencyDeps): void {
  const claims = new WeakMap<FastifyRequest, ClaimRef>();
  // this process, as its claims name it
  const owner = ownerTagOf();
  let purgeDueAt = 0;

  /** Claims the key, or answers for the request (a replay, 409, 422); true when it has answered. */
  async function claimOrAnswer(request: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> {
    if (!VALID_KEY.test(key))
      throw invalidFields(
        { [IDEMPOTENCY_KEY_HEADER]: 'Must be 1 to 255 printable ASCII characters.' },
        'Invalid Idempotency-Key header.',
      );
    const userId = request.user!.id;
    const now = deps.clock.now().getTime();
    if (now >= purgeDueAt) {
      purgeDueAt = now + PURGE_INTERVAL_MS;
      await deleteExpiredKeys(deps.db, now);
    }
    const requestHash = fingerprint(request);
    const claim = { userId, key, requestHash, now, expiresAt: now + KEY_TTL_MS, owner };
    // The row may vanish between a failed insert and the read (its claim was freed, or it expired and was
    // deleted): then the key is free and the insert is tried again. A key that keeps changing hands that
    // fast is in use.
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const id = await insertKeyClaim(deps.db, claim);
      if (id !== null) {
        claims.set(request, { id, claimedAt: now });
        return false;
      }
      const stored = await findKey(deps.db, userId, key);
      if (!stored) continue;
      if (stored.expires_at <= now) {
        await deleteExpiredKey(deps.db, stored.id, now);
        continue;
      }
      if (stored.request_hash !== requestHash)
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with another request (method, path or body).',
        );
      if (stored.response_status !== null) {
        replay(reply, stored);
        return true;
      }
      if (claimStands(stored, owner, now)) throw keyInUse();
      const stale = { id: stored.id, claimedAt: stored.created_at };
      if (await takeOverClaim(deps.db, stale, claim)) {
        claims.set(request, { id: stored.id, claimedAt: now });
        return false;
      }
    }
    throw keyInUse();
  }

  /** Stores the answer on the claim, or frees the claim when the answer is not kept. Never fails. */
  async function settleClaim(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    claim: ClaimRef,
  ) {
    const status = reply.statusCode;
    const body = payload === null || payload === undefined ? '' : payload;
    try {
      if (isKeptStatus(status) && typeof body === 'string') {
        const contentType = reply.getHeader('content-type');
        await storeKeyResponse(deps.db, claim, {
          status,
          contentType: typeof contentType === 'string' ? contentType : null,
          body,
        });
      } else {
        await deleteKeyClaim(deps.db, claim);
      }
    } catch (error) {
      // The answer still goes out; the claim stands until CLAIM_TIMEOUT_MS, and retries get 409 meanwhile
      // rather than running the work twice.
      request.log.error({ err: error }, 'could not record the answer of an idempotency key');
    }
  }

  // Callback hooks rather than async ones: a request without the header passes both without a promise.
  const claimKey: preHandlerHookHandler = (request, reply, done) => {
    const key = request.headers[HEADER_NAME];
    if (key === undefined) return done();
    // Node joins a repeated header into one string; anything else is refused like a bad value.
    claimOrAnswer(request, reply, typeof key === 'string' ? key : '').then((answered) => {
      if (!answered) done();
    }, done);
  };
  const recordAnswer: onSendHookHandler = (request, reply, payload, done) => {
    const claim = claims.get(request);
    if (!claim) return done(null, payload);
    claims.delete(request);
    settleClaim(request, reply, payload, claim).then(() => done(null, payload));
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!takesIdempotencyKey(route.method, route.config?.auth, route.config?.showsSecret)) return;
    route.preHandler = [claimKey, ...[route.preHandler ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), recordAnswer];
  });
}

function replay(reply: FastifyReply, stored: StoredKey): void {
  const status = stored.response_status!;
  // the answer as first sent: its status's headers too (a kept 401 names its scheme again)
  reply.code(status).headers(statusHeaders(status)).header(REPLAYED_HEADER, 'true');
  if (stored.response_content_type) reply.header('content-type', stored.response_content_type);
  reply.send(stored.response_body || undefined);
}

/**
 * The request as a key remembers it: method, path (with or without its trailing slash) and query, and the
 * body as the handler sees it (the value json-body.ts parsed, within its depth bound, as validated), so
 * key order, whitespace and a byte-order mark do not make another request.
 */
function fingerprint(request: FastifyRequest): string {
  const [path, query] = splitUrl(request.url);
  // the body's JSON text with every object's keys sorted (the library's deterministic mode)
  const body = stringify(request.body) ?? 'null';
  return createHash('sha256')
    .update(`${request.method} ${path.replace(/\/+$/, '')}?${query}\n${body}`)
    .digest('hex');
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}
