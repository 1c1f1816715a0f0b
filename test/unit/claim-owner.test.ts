import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownerIsGone, ownerTagOf, startTimeOf, startTimeOfStat } from '../../src/http/claim-owner.ts';
import { CLAIM_TIMEOUT_MS, claimStands } from '../../src/http/idempotency.ts';

// Whose an idempotency claim is, and when its process is proved gone (src/http/claim-owner.ts).

const space = fc
  .tuple(fc.uuid(), fc.integer({ min: 1, max: 2 ** 32 }))
  .map(([boot, ns]) => `${boot}/pid:[${ns}]`);
const pid = fc.integer({ min: 1, max: 4_194_304 });
const start = fc.integer({ min: 1, max: 2 ** 40 }).map(String);

describe('startTimeOfStat', () => {
  it('reads the 22nd field whatever the command name holds', () => {
    fc.assert(
      fc.property(pid, fc.string({ maxLength: 15 }), start, (p, comm, s) => {
        // fields 3 to 21, then the start time, then the rest
        const middle = Array.from({ length: 19 }, (_, i) => (i === 0 ? 'S' : String(i))).join(' ');
        expect(startTimeOfStat(`${p} (${comm}) ${middle} ${s} 4096 12 99\n`)).toBe(s);
      }),
    );
  });

  it('reads this process', () => {
    const self = startTimeOf(process.pid);
    if (process.platform === 'linux') expect(self).toMatch(/^\d+$/);
    else expect(self).toBeNull();
  });
});

describe('ownerIsGone', () => {
  it('proves a claim gone exactly when it ran here and its pid runs nothing, or a later process', () => {
    fc.assert(
      fc.property(
        space,
        pid,
        start,
        fc.option(start, { nil: null }),
        fc.boolean(),
        (where, p, s, now, sameSpace) => {
          const owner = `${where}/${p}/${s}`;
          const self = `${sameSpace ? where : `${where}x`}/1/1`;
          const gone = ownerIsGone(owner, self, (asked) => (asked === p ? now : '1'));
          expect(gone).toBe(sameSpace && now !== s);
        },
      ),
    );
  });

  it('never proves a claim gone without both names', () => {
    fc.assert(
      fc.property(space, pid, start, (where, p, s) => {
        const tag = `${where}/${p}/${s}`;
        expect(ownerIsGone(null, tag, () => null)).toBe(false);
        expect(ownerIsGone(tag, null, () => null)).toBe(false);
        expect(ownerIsGone('not a tag', tag, () => null)).toBe(false);
      }),
    );
  });

  it.skipIf(ownerTagOf() === null)('tells a live process from one killed with SIGKILL', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const tag = ownerTagOf(child.pid);
    expect(tag).toMatch(new RegExp(`/${child.pid}/\\d+$`));
    const self = ownerTagOf();
    expect(ownerIsGone(tag, self, startTimeOf)).toBe(false);
    expect(ownerIsGone(self, self, startTimeOf)).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(ownerIsGone(tag, self, startTimeOf)).toBe(true);
  });
});

describe('claimStands', () => {
  it('holds a claim for CLAIM_TIMEOUT_MS unless its process is proved gone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * CLAIM_TIMEOUT_MS }), fc.boolean(), (age, gone) => {
        const self = 'boot/pid:[1]/1/1';
        const stored = { created_at: 1_000_000, claimed_by: 'boot/pid:[1]/2/5' };
        const stands = claimStands(stored, self, 1_000_000 + age, () => (gone ? null : '5'));
        expect(stands).toBe(age < CLAIM_TIMEOUT_MS && !gone);
      }),
    );
  });
});
