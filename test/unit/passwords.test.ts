import { describe, expect, it } from 'vitest';
import {
  hashingLoad,
  hashPassword,
  passwordProblems,
  verifyPassword,
} from '../../src/modules/accounts/passwords.ts';

describe('password hashing', () => {
  it('stores argon2id hashes that verify only the right password', async () => {
    const stored = await hashPassword('Tidal-Paddle-2024!');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored, 'Tidal-Paddle-2024!')).toBe(true);
    expect(await verifyPassword(stored, 'tidal-paddle-2024!')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('runs one hash at a time (19 MiB each), queueing the rest', async () => {
    const all = Promise.all(Array.from({ length: 5 }, (_, i) => hashPassword(`password-${i}`)));
    await Promise.resolve();
    expect(hashingLoad()).toEqual({ active: 1, pending: 4 });
    expect(new Set(await all).size).toBe(5);
    expect(hashingLoad()).toEqual({ active: 0, pending: 0 });
  });
});

describe('passwordProblems', () => {
  it.each([
    ['Tidal-Paddle-2024!', 'a@b.example', []],
    ['short', 'a@b.example', ['Password must be at least 8 characters long.']],
    ['1234567890', 'a@b.example', ['Password must not be entirely numeric.']],
    ['A@B.example', 'a@b.example', ['Password must differ from the email.']],
  ])('%j for %j → %j', (password, email, problems) => {
    expect(passwordProblems(password, email)).toEqual(problems);
  });
});
