// The team (decisions §25, §26): the owner invites people by mail (`Invite`: `Email`, `Role`, `Send
// invitation`), sees the invitations still open (revoke), changes a member's role, removes a member, and
// hands the ownership over. What cannot be undone asks first.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { dateTime } from '../format.ts';
import { useSession } from '../session.tsx';
import {
  ErrorMessage,
  Field,
  fieldErrors,
  Loading,
  Notice,
  onSubmitRun,
  Page,
  Select,
  TableScroll,
  useAction,
} from '../ui.tsx';
import { useLoad } from './data.ts';

type Member = Schemas['TeamMember'];
type Invitation = Schemas['TeamInvitation'];
type InvitedRole = Invitation['role'];

const ROLE_OPTIONS = [
  ['manager', 'Manager'],
  ['staff', 'Staff'],
] as const;
const ROLE_WORDS: Record<Member['role'], string> = { owner: 'Owner', manager: 'Manager', staff: 'Staff' };
const nameOf = (m: Pick<Member, 'first_name' | 'last_name' | 'email'>) =>
  `${m.first_name} ${m.last_name}`.trim() || m.email;

function Invite({ onSent }: { onSent: () => Promise<void> }) {
  const headingId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitedRole>('staff');
  const [sent, setSent] = useState('');
  const send = useAction(async () => {
    setSent('');
    const invitation = await call(() =>
      api.POST('/api/v1/accounts/team/invitations/', { body: { email: email.trim(), role } }),
    );
    setSent(invitation.email);
    setEmail('');
    await onSent();
  });
  const errors = fieldErrors(send.error);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Invite</h2>
      <form class="stack narrow" onSubmit={onSubmitRun(send.run)} noValidate>
        <ErrorMessage error={send.error} />
        {sent && <Notice>Invitation sent to {sent}. The link works once, for 7 days.</Notice>}
        <Field label="Email" type="email" required value={email} onValue={setEmail} error={errors.email} />
        <Select
          label="Role"
          value={role}
          onValue={(v) => setRole(v as InvitedRole)}
          options={ROLE_OPTIONS}
          error={errors.role}
        />
        <p class="muted">
          Managers do everything but the team and the currency. Staff see listings and bookings, approve or
          decline, and check people in.
        </p>
        <div class="row">
          <button type="submit" class="button primary" disabled={send.busy}>
            Send invitation
          </button>
        </div>
      </form>
    </section>
  );
}

function PendingInvitations({
  invitations,
  onChange,
}: {
  invitations: Invitation[];
  onChange: () => Promise<void>;
}) {
  const headingId = useId();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const revoke = useAction(async () => {
    if (!revoking) return;
    await call(() =>
      api.DELETE('/api/v1/accounts/team/invitations/{id}/', { params: { path: { id: revoking.id } } }),
    );
    setRevoking(null);
    await onChange();
  });
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Pending invitations</h2>
      <ErrorMessage error={revoke.error} />
      {invitations.length === 0 ? (
        <p>No invitations waiting.</p>
      ) : (
        <ul class="stack plain-list">
          {invitations.map((invitation) => (
            <li key={invitation.id} class="card">
              <p>
                <strong>{invitation.email}</strong> · {ROLE_WORDS[invitation.role]} · valid until{' '}
                {dateTime(invitation.expires_at)}
              </p>
              <button type="button" class="button" onClick={() => setRevoking(invitation)}>
                Revoke invitation to {invitation.email}
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke this invitation?"
          confirmText="Yes, revoke"
          cancelText="Keep it"
          busy={revoke.busy}
          onConfirm={() => revoke.run()}
          onClose={() => setRevoking(null)}
        >
          <p>The link mailed to {revoking.email} stops working. You can invite them again later.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

type Confirming = { member: Member; action: 'remove' | 'make-owner' };

function MemberRow({
  member,
  isMe,
  onConfirm,
  onChange,
}: {
  member: Member;
  isMe: boolean;
  onConfirm: (c: Confirming) => void;
  onChange: () => Promise<void>;
}) {
  const [role, setRole] = useState<string>(member.role);
  const change = useAction(async () => {
    await call(() =>
      api.PATCH('/api/v1/accounts/team/{user_id}/', {
        params: { path: { user_id: member.id } },
        body: { role: role as InvitedRole },
      }),
    );
    await onChange();
  });
  const name = nameOf(member);
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{member.email}</td>
      <td>{ROLE_WORDS[member.role]}</td>
      <td>
        {member.role === 'owner' ? (
          isMe ? (
            'You'
          ) : (
            ''
          )
        ) : (
          <div class="stack">
            <ErrorMessage error={change.error} />
            <form class="row" onSubmit={onSubmitRun(change.run)}>
              <Select label={`Role of ${name}`} value={role} onValue={setRole} options={ROLE_OPTIONS} />
              <button type="submit" class="button" disabled={change.busy || role === member.role}>
                Change role of {name}
              </button>
            </form>
            <div class="row">
              <button
                type="button"
                class="button"
                onClick={() => onConfirm({ member, action: 'make-owner' })}
              >
                Make {name} owner
              </button>
              <button
                type="button"
                class="button danger"
                onClick={() => onConfirm({ member, action: 'remove' })}
              >
                Remove {name}
              </button>
            </div>
          </div>
        )}
      </td>
    </tr>
  );
}

function Members({ members, onChange }: { members: Member[]; onChange: () => Promise<void> }) {
  const headingId = useId();
  const { user, reload } = useSession();
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const act = useAction(async () => {
    if (!confirming) return;
    const path = { params: { path: { user_id: confirming.member.id } } };
    if (confirming.action === 'remove')
      await call(() => api.DELETE('/api/v1/accounts/team/{user_id}/', path));
    else await call(() => api.POST('/api/v1/accounts/team/{user_id}/make-owner/', path));
    setConfirming(null);
    // after a hand-over the caller is a manager: the dashboard shows what a manager may do
    if (confirming.action === 'make-owner') await reload();
    else await onChange();
  });
  const name = confirming && nameOf(confirming.member);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Members</h2>
      <ErrorMessage error={act.error} />
      <TableScroll label="Members">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow
                key={`${m.id}-${m.role}`}
                member={m}
                isMe={m.id === user?.id}
                onConfirm={setConfirming}
                onChange={onChange}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
      {confirming && confirming.action === 'remove' && (
        <ConfirmDialog
          title={`Remove ${name}?`}
          confirmText="Yes, remove"
          cancelText="Keep member"
          busy={act.busy}
          onConfirm={() => act.run()}
          onClose={() => setConfirming(null)}
        >
          <p>
            {name} can no longer sign in, from their next click on. What they did stays in the bookings'
            history. This cannot be undone; you can invite a new address later.
          </p>
        </ConfirmDialog>
      )}
      {confirming && confirming.action === 'make-owner' && (
        <ConfirmDialog
          title={`Make ${name} the owner?`}
          confirmText="Yes, hand over"
          cancelText="Keep ownership"
          busy={act.busy}
          onConfirm={() => act.run()}
          onClose={() => setConfirming(null)}
        >
          <p>
            {name} becomes the owner: the team and the currency are theirs. You become a manager, and only the
            new owner can give the ownership back.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

export function TeamPage() {
  const team = useLoad(
    () => call(() => api.GET('/api/v1/accounts/team/', { params: { query: { page_size: 100 } } })),
    [],
  );
  return (
    <Page title="Team">
      <Invite onSent={team.reload} />
      <ErrorMessage error={team.error} />
      {!team.data && !team.error && <Loading />}
      {team.data && <PendingInvitations invitations={team.data.invitations} onChange={team.reload} />}
      {team.data && <Members members={team.data.results} onChange={team.reload} />}
    </Page>
  );
}
