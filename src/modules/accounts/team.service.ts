import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound, permissionDenied } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { recordTeamInvitation } from '../../outbox/events.ts';
import * as repo from './accounts.repository.ts';
import { type AccountsDeps, checkPassword, createUser, getMe, normaliseEmail } from './accounts.service.ts';
import { hashPassword } from './passwords.ts';
import * as team from './team.repository.ts';
import {
  INVITATION_TTL_MS,
  invitationState,
  MAX_OPEN_INVITATIONS,
  type TeamChange,
  teamChangeRefusal,
} from './team-rules.ts';

// A vendor's team (decisions §25): invitations mailed through the outbox, joining by the mailed token,
// the team list, role changes, removal and the hand-over of the ownership. Who may call each route is the
// permission table's (the team's routes are the owner's); what may be done to whom is team-rules.ts's.

type InvitedRole = 'manager' | 'staff';

const toMember = (row: team.MemberRow) => ({
  id: row.id,
  email: row.email,
  first_name: row.first_name,
  last_name: row.last_name,
  role: row.vendor_role!,
  created_at: formatDateTime(row.date_joined),
});
export type TeamMember = ReturnType<typeof toMember>;

type OpenInvitationRow = Awaited<ReturnType<typeof team.openInvitations>>[number];
const toInvitation = (row: OpenInvitationRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invited_by: row.invited_by,
  created_at: formatDateTime(row.created_at),
  expires_at: formatDateTime(row.expires_at),
});

/** The caller's vendor: the routes are vendor routes, so a vendor account with a team always calls. */
function vendorOf(caller: AuthUser): number {
  if (caller.vendorId === null) throw permissionDenied('This account has no vendor profile.');
  return caller.vendorId;
}

/** A page of the members and every open invitation, on one snapshot. */
export async function listTeam(deps: AccountsDeps, caller: AuthUser, page: Page) {
  const vendorId = vendorOf(caller);
  const now = deps.clock.now().getTime();
  return inReadSnapshot(deps.db, async (db) => {
    const [count, members, invitations] = await Promise.all([
      team.countMembers(db, vendorId),
      team.listMembers(db, vendorId, page),
      team.openInvitations(db, vendorId, now),
    ]);
    return { count, results: members.map(toMember), invitations: invitations.map(toInvitation) };
  });
}

/**
 * Invites `email` to the caller's team in `role`: an invitation valid INVITATION_TTL_MS and, in the same
 * transaction, its mail in the outbox. An email that already has an account (any kind, a removed member's
 * too) is a 400. Inviting an email again replaces its open invitation (the old link stops working): that is
 * how an owner sends a lost invitation again.
 */
export async function invite(
  deps: AccountsDeps,
  caller: AuthUser,
  input: { email: string; role: InvitedRole },
) {
  const vendorId = vendorOf(caller);
  const email = normaliseEmail(input.email);
  const now = deps.clock.now().getTime();
  return inTransaction(deps.db, async (trx) => {
    if (await repo.findUserByEmail(trx, email))
      throw invalidFields({
        email: 'An account with this email already exists; only new accounts can join a team.',
      });
    await team.revokeOpenInvitations(trx, { vendorId, email }, now);
    if ((await team.openInvitations(trx, vendorId, now)).length >= MAX_OPEN_INVITATIONS)
      throw invalidFields({
        email: `A team has at most ${MAX_OPEN_INVITATIONS} open invitations; revoke some first.`,
      });
    const row = await team.insertInvitation(trx, {
      vendor_id: vendorId,
      email,
      role: input.role,
      invited_by: caller.id,
      token_hash: null,
      created_at: now,
      expires_at: now + INVITATION_TTL_MS,
      accepted_at: null,
      accepted_user_id: null,
      revoked_at: null,
    });
    const [profile, inviter] = await Promise.all([
      repo.findProfileById(trx, vendorId),
      repo.findUserById(trx, caller.id),
    ]);
    const inviterName = `${inviter?.first_name ?? ''} ${inviter?.last_name ?? ''}`.trim() || caller.email;
    await recordTeamInvitation(
      trx,
      {
        invitation_id: row.id,
        email,
        role: input.role,
        business_name: profile?.business_name ?? '',
        invited_by: inviterName,
        expires_at: formatDateTime(row.expires_at),
        time_zone: profile?.time_zone ?? 'UTC',
      },
      now,
    );
    return toInvitation(row);
  });
}

/**
 * Revokes an open invitation of the caller's team: its link stops working. An accepted one is a 409 (the
 * member is removed instead); revoking one already revoked or expired changes nothing.
 */
export async function revokeInvitation(deps: AccountsDeps, caller: AuthUser, id: number): Promise<void> {
  const vendorId = vendorOf(caller);
  const now = deps.clock.now().getTime();
  const found = await team.findInvitation(deps.db, vendorId, id);
  if (!found) throw notFound('Invitation not found.');
  if (invitationState(found, now) === 'accepted')
    throw new AppError('invalid_state', 'This invitation was already accepted; remove the member instead.');
  await team.revokeOpenInvitations(deps.db, { vendorId, id }, now);
}

const invitationTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Gives an open invitation its token (module interface for the outbox worker, in its transaction `trx`,
 * when it fans the invitation's mail out): only the hash is stored. Undefined when the invitation is no
 * longer open (revoked or replaced before its mail left): no mail then.
 */
export async function issueInvitationToken(
  trx: Db,
  invitationId: number,
  now: number,
): Promise<{ token: string } | undefined> {
  const token = randomBytes(32).toString('base64url');
  return (await team.setInvitationToken(trx, invitationId, invitationTokenHash(token), now))
    ? { token }
    : undefined;
}

const badInvitation = () =>
  invalidFields({
    token:
      'This invitation is not valid: it was already used, revoked or replaced, has expired, or is unknown.',
  });

/**
 * Joins a team with an invitation's token: a new vendor account of the invitation's vendor, in its role.
 * The invitation is used by a guarded update in the same transaction as the account, so of two
 * simultaneous accepts exactly one makes an account; the other gets the 400 of a used token.
 */
export async function acceptInvitation(
  deps: AccountsDeps,
  input: { token: string; password: string; first_name: string; last_name: string },
) {
  const now = deps.clock.now().getTime();
  const found = await team.findInvitationByToken(deps.db, invitationTokenHash(input.token));
  if (!found || invitationState(found, now) !== 'open') throw badInvitation();
  checkPassword(input.password, found.email);
  const hash = await hashPassword(input.password);
  const user = await inTransaction(deps.db, async (trx) => {
    if (!(await team.acceptInvitation(trx, found.id, now))) throw badInvitation();
    const created = await createUser(
      trx,
      {
        email: found.email,
        password: input.password,
        first_name: input.first_name,
        last_name: input.last_name,
      },
      true,
      false,
      now,
      hash,
    );
    await repo.joinTeam(trx, created.id, found.vendor_id, found.role);
    await team.setAcceptedUser(trx, found.id, created.id);
    return created.id;
  });
  return getMe(deps, user);
}

/** The member `userId` of the caller's team, or 404 (another vendor's account, a customer, a removed one). */
async function memberOf(db: Db, vendorId: number, userId: number) {
  const member = await team.findMember(db, vendorId, userId);
  if (!member) throw notFound('No member of your team has this id.');
  return member;
}

/** Refuses a change the team rules do not allow (400 naming why), before anything is written. */
async function checkedTarget(db: Db, caller: AuthUser, userId: number, change: TeamChange) {
  const vendorId = vendorOf(caller);
  const target = await memberOf(db, vendorId, userId);
  const refusal = teamChangeRefusal(
    { id: caller.id, role: caller.vendorRole ?? 'staff' },
    { id: target.id, role: target.vendor_role! },
    change,
  );
  if (refusal) throw new AppError('invalid', refusal);
  return { vendorId, target };
}

/** A guarded write that found its row moved by another request: the state it needed is gone. */
const movedOn = () => new AppError('invalid_state', 'The team changed meanwhile; reload it and try again.');

export async function changeRole(deps: AccountsDeps, caller: AuthUser, userId: number, role: InvitedRole) {
  const { vendorId } = await checkedTarget(deps.db, caller, userId, { kind: 'change_role', role });
  return inTransaction(deps.db, async (trx) => {
    if (!(await team.setRole(trx, vendorId, userId, role))) throw movedOn();
    return toMember(await memberOf(trx, vendorId, userId));
  });
}

/**
 * Removes a member: the account is closed, its refresh tokens and reset links revoked in the same
 * transaction; its access tokens stop working with its next request (the user lookup skips a closed
 * account). What it did stays in the history under its id.
 */
export async function removeMember(deps: AccountsDeps, caller: AuthUser, userId: number): Promise<void> {
  const { vendorId } = await checkedTarget(deps.db, caller, userId, { kind: 'remove' });
  const now = deps.clock.now().getTime();
  await inTransaction(deps.db, async (trx) => {
    if (!(await team.deactivateMember(trx, vendorId, userId, now))) throw movedOn();
    await repo.revokeAllRefreshTokens(trx, userId, now);
    await repo.expirePasswordResetTokens(trx, userId, now);
  });
}

/** Hands the ownership to a member; the caller becomes a manager. The new owner's member object. */
export async function makeOwner(deps: AccountsDeps, caller: AuthUser, userId: number) {
  const { vendorId } = await checkedTarget(deps.db, caller, userId, { kind: 'make_owner' });
  try {
    return await inTransaction(deps.db, async (trx) => {
      if (!(await team.handOver(trx, vendorId, caller.id, userId))) throw movedOn();
      return toMember(await memberOf(trx, vendorId, userId));
    });
  } catch (error) {
    // two hand-overs at once: the one-owner index refuses the second
    if (isUniqueViolation(error)) throw movedOn();
    throw error;
  }
}
