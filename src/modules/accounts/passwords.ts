import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

// argon2id (the library's default algorithm) with its default memory and time costs: 19 MiB per hash.
// One hash at a time: a burst of logins or registrations queues instead of taking 19 MiB per thread of
// the pool (each hash running at once adds its memory to the server's peak RSS) and the second core from
// the requests being served.
const hashing = pLimit(1);

/** Hashes running and waiting (for tests and diagnostics). */
export const hashingLoad = () => ({ active: hashing.activeCount, pending: hashing.pendingCount });

export async function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password));
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

// A real hash of a random password: login for an unknown email verifies against it, so an unknown
// email costs the same time as a wrong password and reveals nothing.
let dummyHash: Promise<string> | null = null;
export function hashForTimingEqualisation(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  return dummyHash;
}

/** The password rules of the service; returns the problems, empty when the password is acceptable. */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push('Password must be at least 8 characters long.');
  if (/^\d+$/.test(password)) problems.push('Password must not be entirely numeric.');
  if (password.trim().toLowerCase() === email.trim().toLowerCase())
    problems.push('Password must differ from the email.');
  return problems;
}
