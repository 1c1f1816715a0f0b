import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  channelKeyHash,
  isChannelKeyShaped,
  newChannelKey,
} from '../../src/modules/channels/channel-keys.ts';

// A channel's key (decisions §24): 256 random bits after `wbk_`, base64url; stored as hex SHA-256.

describe('channel keys', () => {
  it('writes any 32 bytes as wbk_ and 43 base64url characters that decode back to them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const key = newChannelKey(() => Buffer.from(bytes));
        expect(key.startsWith('wbk_')).toBe(true);
        expect(key).toHaveLength(47);
        expect(isChannelKeyShaped(key)).toBe(true);
        expect([...Buffer.from(key.slice(4), 'base64url')]).toEqual([...bytes]);
      }),
    );
  });

  it('draws a different key each time from the system generator', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newChannelKey()));
    expect(keys.size).toBe(200);
  });

  it('hashes a key to the hex SHA-256 of its text, and distinct keys to distinct hashes', () => {
    expect(channelKeyHash('wbk_abc')).toBe(createHash('sha256').update('wbk_abc').digest('hex'));
    expect(channelKeyHash('wbk_abc')).toMatch(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(channelKeyHash(a)).not.toBe(channelKeyHash(b));
      }),
    );
  });

  it('refuses shapes it never issues before any lookup', () => {
    for (const bad of [
      '',
      'wbk_',
      'wbk_short',
      `WBK_${'a'.repeat(43)}`,
      `wbk_${'a'.repeat(44)}`,
      `wbk_${'+'.repeat(43)}`,
    ])
      expect(isChannelKeyShaped(bad), bad).toBe(false);
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!s.startsWith('wbk_'));
        expect(isChannelKeyShaped(s)).toBe(false);
      }),
    );
  });
});
