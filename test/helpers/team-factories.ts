import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { listMail } from '../../src/modules/notifications/mail-files.ts';
import type { TestApp } from './build-test-app.ts';
import { type Account, PASSWORD } from './factories.ts';

// Teams (decisions §25) through the API as a user meets them: the owner invites, the outbox mails the
// link, the invitee joins with the token read from that mail, and logs in.

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export type InvitedRole = 'manager' | 'staff';

export async function inviteMember(
  app: FastifyInstance,
  owner: Pick<Account, 'token'>,
  email: string,
  role: InvitedRole,
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/accounts/team/invitations/',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { email, role },
  });
}

/** Runs the outbox and reads the token of the newest invitation mailed to `email` (its /join link). */
export async function mailedInvitationToken(t: TestApp, email: string): Promise<string> {
  await t.app.outbox.runOnce();
  const mail = (await listMail(t.config.mailDir)).find(
    (m) => m.to.includes(email) && /\/join\?token=/.test(m.text),
  );
  const token = mail && /\/join\?token=([A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return decodeURIComponent(token);
}

export async function acceptInvitation(
  app: FastifyInstance,
  token: string,
  overrides: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/accounts/team/invitations/accept/',
    payload: { token, password: PASSWORD, first_name: 'Rui', last_name: 'Costa', ...overrides },
  });
}

/** A new member of the owner's team in `role`, joined through the mailed invitation and logged in. */
export async function addTeamMember(
  t: TestApp,
  owner: Pick<Account, 'token'>,
  role: InvitedRole,
): Promise<Account> {
  const email = `${role}-${unique()}@example.com`;
  const invited = await inviteMember(t.app, owner, email, role);
  if (invited.statusCode !== 201) throw new Error(`invitation failed: ${invited.statusCode} ${invited.body}`);
  const joined = await acceptInvitation(t.app, await mailedInvitationToken(t, email));
  if (joined.statusCode !== 201) throw new Error(`joining failed: ${joined.statusCode} ${joined.body}`);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/accounts/token/',
    payload: { email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const tokens = login.json() as { access: string; refresh: string };
  return { id: joined.json().id, email, token: tokens.access, refresh: tokens.refresh };
}

/**
 * Makes `userId` its vendor's owner again, straight in the database, if a hand-over made it a manager: the
 * route-driven suites call make-owner with the world's vendor and need that vendor to stay the owner for
 * the routes after it. Not a test of anything.
 */
export async function restoreOwner(db: Kysely<Database>, userId: number): Promise<void> {
  const row = await db
    .selectFrom('users')
    .select(['vendor_id', 'vendor_role'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (row.vendor_role === 'owner' || row.vendor_id === null) return;
  const vendorId = row.vendor_id;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ vendor_role: 'manager' })
      .where('vendor_id', '=', vendorId)
      .where('vendor_role', '=', 'owner')
      .execute();
    await trx.updateTable('users').set({ vendor_role: 'owner' }).where('id', '=', userId).execute();
    await trx.updateTable('vendor_profiles').set({ user_id: userId }).where('id', '=', vendorId).execute();
  });
}
