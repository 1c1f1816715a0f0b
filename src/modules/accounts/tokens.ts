import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
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

/** Verifies signature, algorithm, expiry and type; any failure is 401 token_not_valid. */
export async function verifyToken(
  keys: TokenKeys,
  token: string,
  type: TokenType,
  nowMs: number,
): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, keys.key, {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'jti', 'exp', 'iat'],
    });
    const userId = Number(payload.sub);
    if (payload.token_type !== type || !Number.isSafeInteger(userId) || typeof payload.jti !== 'string') {
      throw new AppError('token_not_valid', `Token is not a valid ${type} token.`);
    }
    return { userId, jti: payload.jti };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const expired = error instanceof joseErrors.JWTExpired;
    throw new AppError('token_not_valid', expired ? 'Token has expired.' : 'Token is invalid.');
  }
}
