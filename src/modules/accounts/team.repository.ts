import type { Insertable, Selectable } from 'kysely';
import type { Db, TeamInvitationsTable, VendorRole } from '../../db/database.ts';
import type { Page } from '../../http/pagination.ts';

// The SQL of a vendor's team (decisions §25). Every change of a member or an invitation is one guarded
// UPDATE (`... where <still in the state the rule needs>`): zero rows means another request moved first,
// so of two simultaneous accepts, removals or hand-overs exactly one takes effect.

export type InvitationRow = Selectable<TeamInvitationsTable>;

const MEMBER_COLUMNS = ['id', 'email', 'first_name', 'last_name', 'vendor_role', 'date_joined'] as const;

/** The active members of a vendor's team (removed ones are kept for the history, never listed). */
const membersOf = (db: Db, vendorId: number) =>
  db
    .selectFrom('users')
    .where('vendor_id', '=', vendorId)
    .where('vendor_role', 'is not', null)
    .where('deactivated_at', 'is', null);

export async function countMembers(db: Db, vendorId: number): Promise<number> {
  const row = await membersOf(db, vendorId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the team in the order its members joined. */
export async function listMembers(db: Db, vendorId: number, page: Page) {
  return membersOf(db, vendorId)
    .select(MEMBER_COLUMNS)
    .orderBy('date_joined')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

export async function findMember(db: Db, vendorId: number, userId: number): Promise<MemberRow | undefined> {
  return membersOf(db, vendorId).select(MEMBER_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

/** An UPDATE of the member `userId` of the vendor's team if they still are an active member but the owner. */
const updateNonOwner = (db: Db, vendorId: number, userId: number) =>
  db
    .updateTable('users')
    .where('id', '=', userId)
    .where('vendor_id', '=', vendorId)
    .where('vendor_role', 'in', ['manager', 'staff'])
    .where('deactivated_at', 'is', null);

/** Sets a member's role unless they are the owner (ownership moves only by handOver). */
export async function setRole(db: Db, vendorId: number, userId: number, role: VendorRole): Promise<boolean> {
  const result = await updateNonOwner(db, vendorId, userId).set({ vendor_role: role }).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Removes a member other than the owner: the account is closed (it can no longer sign in, and its access
 * tokens stop working with the next lookup) but kept, so the history still names who did what.
 */
export async function deactivateMember(db: Db, vendorId: number, userId: number, now: number) {
  const result = await updateNonOwner(db, vendorId, userId)
    .set({ vendor_role: null, deactivated_at: now, updated_at: now })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Hands the ownership from `ownerId` to the member `targetId`: the owner becomes a manager first (the
 * unique index allows one owner per vendor at every statement), then the target the owner, and the
 * profile's user_id (whose login email gets the vendor's mail when no contact_email is set) follows.
 * False when either guard fails (the caller is no longer the owner, or the target no longer a member):
 * the caller's transaction must then roll back.
 */
export async function handOver(
  db: Db,
  vendorId: number,
  ownerId: number,
  targetId: number,
): Promise<boolean> {
  const demoted = await db
    .updateTable('users')
    .set({ vendor_role: 'manager' })
    .where('id', '=', ownerId)
    .where('vendor_id', '=', vendorId)
    .where('vendor_role', '=', 'owner')
    .executeTakeFirst();
  if (Number(demoted.numUpdatedRows) !== 1) return false;
  const promoted = await updateNonOwner(db, vendorId, targetId)
    .set({ vendor_role: 'owner' })
    .executeTakeFirst();
  if (Number(promoted.numUpdatedRows) !== 1) return false;
  await db.updateTable('vendor_profiles').set({ user_id: targetId }).where('id', '=', vendorId).execute();
  return true;
}

// --- invitations ----------------------------------------------------------------------------------------

const INVITATION_COLUMNS = ['id', 'email', 'role', 'created_at', 'expires_at', 'invited_by'] as const;

/** A vendor's invitations still open at `now` (unaccepted, unrevoked, unexpired), newest first. */
export async function openInvitations(db: Db, vendorId: number, now: number) {
  return db
    .selectFrom('team_invitations')
    .select(INVITATION_COLUMNS)
    .where('vendor_id', '=', vendorId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function insertInvitation(db: Db, values: Insertable<TeamInvitationsTable>) {
  return db
    .insertInto('team_invitations')
    .values(values)
    .returning(INVITATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findInvitation(
  db: Db,
  vendorId: number,
  id: number,
): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('team_invitations')
    .selectAll()
    .where('vendor_id', '=', vendorId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** An invitation by its token's hash, with what the joining page and the new account need of its vendor. */
export async function findInvitationByToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('team_invitations')
    .innerJoin('vendor_profiles', 'vendor_profiles.id', 'team_invitations.vendor_id')
    .selectAll('team_invitations')
    .select('vendor_profiles.business_name')
    .where('team_invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * An UPDATE of the invitations still open at `now` (unaccepted, unrevoked, unexpired): the guard of every
 * change to an invitation, so that of two requests racing for one, exactly one finds it open.
 */
const updateOpenInvitations = (db: Db, now: number) =>
  db
    .updateTable('team_invitations')
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);

/** Revokes the vendor's open invitations to `email`, or the one `id`; how many. */
export async function revokeOpenInvitations(
  db: Db,
  filter: { vendorId: number; email?: string; id?: number },
  now: number,
): Promise<number> {
  let query = updateOpenInvitations(db, now)
    .set({ revoked_at: now })
    .where('vendor_id', '=', filter.vendorId);
  if (filter.email !== undefined) query = query.where('email', '=', filter.email);
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

/** Gives an open invitation the hash of the token its mail carries; false when it is no longer open. */
export async function setInvitationToken(db: Db, id: number, tokenHash: string, now: number) {
  const result = await updateOpenInvitations(db, now)
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks an invitation accepted if it still is open: what makes it single-use (the account it made is
 * recorded after, by setAcceptedUser, in the same transaction).
 */
export async function acceptInvitation(db: Db, id: number, now: number): Promise<boolean> {
  const result = await updateOpenInvitations(db, now)
    .set({ accepted_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setAcceptedUser(db: Db, id: number, userId: number): Promise<void> {
  await db.updateTable('team_invitations').set({ accepted_user_id: userId }).where('id', '=', id).execute();
}
