import type { VendorRole } from '../../db/database.ts';
import { DAY_MS } from '../../lib/datetime.ts';

// The rules of a vendor's team (decisions §25) as pure functions: the team service asks them before it
// writes, and the property tests (test/unit/team-rules.test.ts) hold them to "exactly one owner, always".
// Which role may call which route is the permission table's (src/http/team-roles.ts).

/** An invitation is valid this long after it was sent. */
export const INVITATION_TTL_MS = 7 * DAY_MS;
/** At most this many open invitations per vendor: the team answer lists them all. */
export const MAX_OPEN_INVITATIONS = 100;

/**
 * The profile fields only the owner may change: the money settings. A manager may send them unchanged
 * (a settings form sends every field), never a new value.
 */
export const OWNER_ONLY_PROFILE_FIELDS = ['currency'] as const;
type OwnerOnlyField = (typeof OWNER_ONLY_PROFILE_FIELDS)[number];

/** Why `role` may not make this profile change (the normalised values given), or null when it may. */
export function profileChangeRefusal(
  role: VendorRole | null,
  current: Record<OwnerOnlyField, string>,
  change: Partial<Record<OwnerOnlyField, string>>,
): string | null {
  if (role === 'owner') return null;
  const changed = OWNER_ONLY_PROFILE_FIELDS.filter(
    (f) => change[f] !== undefined && change[f] !== current[f],
  );
  return changed.length ? `Only the owner may change the vendor's ${changed.join(', ')}.` : null;
}

export type InvitationState = 'open' | 'accepted' | 'revoked' | 'expired';

/** Where an invitation stands at `now`; only an open one can be accepted or revoked. */
export function invitationState(
  invitation: { accepted_at: number | null; revoked_at: number | null; expires_at: number },
  now: number,
): InvitationState {
  if (invitation.accepted_at !== null) return 'accepted';
  if (invitation.revoked_at !== null) return 'revoked';
  return invitation.expires_at > now ? 'open' : 'expired';
}

export interface Member {
  id: number;
  role: VendorRole;
}

export type TeamChange =
  | { kind: 'change_role'; role: Exclude<VendorRole, 'owner'> }
  | { kind: 'remove' }
  | { kind: 'make_owner' };

/**
 * Why the owner `actor` may not make `change` to `target` (a member of the same team), or null when they
 * may. The owner never changes their own role nor removes themselves: the team would be left without an
 * owner. Ownership moves only by make-owner, which turns the former owner into a manager.
 */
export function teamChangeRefusal(actor: Member, target: Member, change: TeamChange): string | null {
  if (actor.role !== 'owner') return 'Only the owner manages the team.';
  if (target.id !== actor.id) return null;
  if (change.kind === 'remove') return 'The owner cannot remove themselves; hand the ownership over first.';
  if (change.kind === 'make_owner') return 'You already own this vendor.';
  return "The owner's role changes only by handing the ownership to another member (make-owner).";
}

/** The team after `change` (which teamChangeRefusal allowed): the model the property tests replay. */
export function applyTeamChange(
  team: readonly Member[],
  actorId: number,
  targetId: number,
  change: TeamChange,
) {
  if (change.kind === 'remove') return team.filter((m) => m.id !== targetId);
  return team.map((m): Member => {
    if (change.kind === 'change_role') return m.id === targetId ? { ...m, role: change.role } : m;
    if (m.id === targetId) return { ...m, role: 'owner' };
    return m.id === actorId ? { ...m, role: 'manager' } : m;
  });
}
