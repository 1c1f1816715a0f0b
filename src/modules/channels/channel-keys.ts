import { createHash, randomBytes } from 'node:crypto';

// A channel's API key (decisions §24): `wbk_` and 32 random bytes in base64url, shown once. Only its
// SHA-256 is stored: a key of 256 random bits needs no slow hash (nobody can guess it, so nobody can try
// guesses against a stolen hash), and looking the channel up by the hash means no stored secret is ever
// compared byte by byte with what a caller sent.

export const CHANNEL_KEY_PREFIX = 'wbk_';
const KEY_BYTES = 32;
const KEY_PATTERN = /^wbk_[A-Za-z0-9_-]{43}$/;

/** A new key from `random` bytes (the system's CSPRNG unless a test passes its own). */
export function newChannelKey(random: (size: number) => Buffer = randomBytes): string {
  return CHANNEL_KEY_PREFIX + random(KEY_BYTES).toString('base64url');
}

/** Whether a string has the shape of a key this service issues (cheap refusal before any lookup). */
export const isChannelKeyShaped = (key: string): boolean => KEY_PATTERN.test(key);

/** The stored form of a key: hex SHA-256. */
export const channelKeyHash = (key: string): string => createHash('sha256').update(key).digest('hex');
