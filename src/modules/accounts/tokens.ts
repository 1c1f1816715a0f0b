import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { findSetting, insertSettingIfAbsent } from './accounts.repository.ts';

export type TokenType = 'access' | 'refresh';

export interface TokenKeys {
  /** HMAC-SHA-256, imported once: jose would import raw key bytes again at every sign and verify */
  key: webcrypto.CryptoKey;
  accessTtl: number;
  refreshTtl: number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: number;
}

const SETTING = 'jwt_secret';

/**
 * The signing key: JWT_SECRET when set; otherwise one random key made by the first instance and kept in
 * the database, so restarts and every other instance sign and verify alike.
 */
export async function loadSigningKey(db: Db, configured: string | null): Promise<webcrypto.CryptoKey> {
  if (configured) return hmacKey(configured);
  await insertSettingIfAbsent(db, SETTING, randomBytes(48).toString('base64url'));
  const stored = await findSetting(db, SETTING);
  if (!stored) throw new Error('could not store the generated JWT key');
  return hmacKey(stored);
}

function hmacKey(secret: string): Promise<webcrypto.CryptoKey> {
  const bytes = new TextEncoder().encode(secret);
  return webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

export async function issueToken(
  keys: TokenKeys,
  userId: number,
  type: TokenType,
  nowMs: number,
): Promise<IssuedToken> {
  const jti = randomUUID();
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + (type === 'access' ? keys.accessTtl : keys.refreshTtl);
  const token = await new SignJWT({ token_type: type })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(keys.key);
  return { token, jti, expiresAt: exp * 1000 };
}

export interface VerifiedToken {
  userId: number;
  jti: string;
}

interface SignedClaims {
  userId: number;
  jti: string;
  type: unknown;
  /** expiry, epoch seconds */
  exp: number;
}

/**
 * Tokens whose signature was verified, per key: a client sends the same access token with every request
 * until it expires, and the HMAC would otherwise be verified again at each one. A hit still has its
 * expiry and type checked on every call. Keyed by the whole token, signature included, so only those
 * exact bytes are ever accepted from here; bounded, least recently used out first.
 */
const verifiedByKey = new WeakMap<webcrypto.CryptoKey, LRUCache<string, SignedClaims>>();
const VERIFIED_TOKENS = 5_000;

/** Verifies signature, algorithm, expiry and type; any failure is 401 token_not_valid. */
export async function verifyToken(
  keys: TokenKeys,
  token: string,
  type: TokenType,
  nowMs: number,
): Promise<VerifiedToken> {
  let verified = verifiedByKey.get(keys.key);
  if (!verified) {
    verified = new LRUCache({ max: VERIFIED_TOKENS });
    verifiedByKey.set(keys.key, verified);
  }
  let claims = verified.get(token);
  // jose's rule, applied to a remembered token too: expired once now (in whole seconds) reaches exp.
  if (claims && Math.floor(nowMs / 1000) >= claims.exp) throw expired();
  if (!claims) {
    claims = await verifySignature(keys, token, nowMs);
    verified.set(token, claims);
  }
  if (claims.type !== type) throw new AppError('token_not_valid', `Token is not a valid ${type} token.`);
  return { userId: claims.userId, jti: claims.jti };
}

const expired = () => new AppError('token_not_valid', 'Token has expired.');

async function verifySignature(keys: TokenKeys, token: string, nowMs: number): Promise<SignedClaims> {
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(token, keys.key, {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'jti', 'exp', 'iat'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw expired();
    throw new AppError('token_not_valid', 'Token is invalid.');
  }
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || typeof payload.jti !== 'string' || payload.exp === undefined)
    throw new AppError('token_not_valid', 'Token is invalid.');
  return { userId, jti: payload.jti, type: payload.token_type, exp: payload.exp };
}
