import { readFileSync, readlinkSync } from 'node:fs';

// Which process holds an idempotency key's claim, and whether that process has certainly ended, so that a
// retry after a crash runs at once instead of waiting out CLAIM_TIMEOUT_MS (decisions §13).
//
// A process is named by where its pid means something (the kernel's boot id and the pid namespace, read
// from /proc on Linux), its pid, and its start time in clock ticks since boot (/proc/<pid>/stat): two
// processes never share all four, a reused pid has another start time, and every thread of a process
// (the worker-thread servers of the tests) shares them. Another process on the same kernel and pid
// namespace can tell from /proc/<pid>/stat whether the claim's process still runs. Anything else (another
// machine or container, no /proc) proves nothing: such a claim stands until CLAIM_TIMEOUT_MS, as before.

/** `<boot id>/<pid namespace>/<pid>/<start time>`: a claim's owner as the claim row records it. */
export type OwnerTag = string;

function readOr(read: () => string): string | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The kernel boot and pid namespace this process runs in; null where /proc does not tell (not Linux). */
function pidSpace(): string | null {
  const boot = readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const namespace = readOr(() => readlinkSync('/proc/self/ns/pid'));
  return boot && namespace ? `${boot}/${namespace}` : null;
}

/**
 * A process's start time (clock ticks since boot) from the text of its /proc/<pid>/stat: the 22nd field,
 * counted after the command name, which is in parentheses and may itself hold spaces or parentheses.
 */
export function startTimeOfStat(stat: string): string | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the 3rd field (state)
  const start = fields[19];
  return start && /^\d+$/.test(start) ? start : null;
}

/** The start time of the process `pid` in this pid namespace; null when no such process runs. */
export function startTimeOf(pid: number): string | null {
  const stat = readOr(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return stat === null ? null : startTimeOfStat(stat);
}

/** The tag of the running process `pid` (this one by default); null where it cannot be told. */
export function ownerTagOf(pid = process.pid, space = pidSpace()): OwnerTag | null {
  const start = startTimeOf(pid);
  return space && start ? `${space}/${pid}/${start}` : null;
}

function parseTag(tag: OwnerTag): { space: string; pid: number; start: string } | null {
  const parts = tag.split('/');
  if (parts.length < 4) return null;
  const start = parts.pop()!;
  const pid = Number(parts.pop());
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  return { space: parts.join('/'), pid, start };
}

/**
 * True only when the process that holds a claim has certainly ended: it ran where `self` runs (same
 * kernel boot, same pid namespace) and its pid now runs nothing, or another process (started at another
 * time). `startTime` reads a pid's start time here (startTimeOf). A claim without an owner, or from
 * elsewhere, is never proved gone.
 */
export function ownerIsGone(
  owner: OwnerTag | null,
  self: OwnerTag | null,
  startTime: (pid: number) => string | null,
): boolean {
  const claimed = owner === null ? null : parseTag(owner);
  const here = self === null ? null : parseTag(self);
  if (!claimed || !here || claimed.space !== here.space) return false;
  return startTime(claimed.pid) !== claimed.start;
}
