import { Type } from 'typebox';
import { DateTimeOut, Named, Nullable, Ref, Text } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { Email, NewPassword } from './accounts.schemas.ts';
import { INVITATION_TTL_MS } from './team-rules.ts';

const InvitedRole = Type.Union([Type.Literal('manager'), Type.Literal('staff')], {
  description:
    'manager: everything but the team, the currency and channel keys; staff: listings, bookings and ' +
    'the manifest to read, attendance, approve and decline',
});
const Role = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')]);

const MEMBER_EXAMPLE = {
  id: 12,
  email: 'guide@bluelagoon.example',
  first_name: 'Rui',
  last_name: 'Costa',
  role: 'staff',
  created_at: '2026-06-01T08:00:00.000Z',
};
const INVITATION_EXAMPLE = {
  id: 4,
  email: 'guide@example.com',
  role: 'staff',
  invited_by: 3,
  created_at: '2026-06-01T08:00:00.000Z',
  expires_at: '2026-06-08T08:00:00.000Z',
};

export const MemberSchema = Named(
  'TeamMember',
  Type.Object(
    {
      id: Type.Integer({ description: 'the member’s user id' }),
      email: Type.String(),
      first_name: Type.String(),
      last_name: Type.String(),
      role: Role,
      created_at: DateTimeOut,
    },
    {
      description: 'A member of the caller’s team (decisions §25).',
      examples: [MEMBER_EXAMPLE],
    },
  ),
);

export const InvitationSchema = Named(
  'TeamInvitation',
  Type.Object(
    {
      id: Type.Integer(),
      email: Type.String(),
      role: InvitedRole,
      invited_by: Type.Integer({ description: 'the user id of the owner who sent it' }),
      created_at: DateTimeOut,
      expires_at: DateTimeOut,
    },
    {
      description: `An open invitation: its link works once, for ${INVITATION_TTL_MS / 86_400_000} days.`,
      examples: [INVITATION_EXAMPLE],
    },
  ),
);

export const TeamSchema = Named(
  'Team',
  Type.Object(
    {
      count: Type.Integer({ description: 'members in every page together' }),
      next: Nullable(Type.String({ description: 'absolute URL of the next page of members' })),
      previous: Nullable(Type.String({ description: 'absolute URL of the previous page of members' })),
      results: Type.Array(Ref(MemberSchema)),
      invitations: Type.Array(Ref(InvitationSchema), { description: 'every open invitation, newest first' }),
    },
    {
      description: 'A page of the members, in the order they joined, and the open invitations.',
      examples: [
        {
          count: 1,
          next: null,
          previous: null,
          results: [MEMBER_EXAMPLE],
          invitations: [INVITATION_EXAMPLE],
        },
      ],
    },
  ),
);

export const PermissionsSchema = Named(
  'TeamPermissions',
  Type.Object(
    {
      role: Role,
      operations: Type.Array(Type.String(), { description: 'the vendor operations the role may call' }),
    },
    {
      description: 'What a member of the team may do (decisions §25).',
      examples: [
        {
          role: 'staff',
          operations: ['GET /api/v1/booking/vendor/manifest/', 'POST /api/v1/booking/bookings/{id}/approve/'],
        },
      ],
    },
  ),
);

export const InviteBody = Type.Object(
  { email: Email, role: InvitedRole },
  { examples: [{ email: 'guide@example.com', role: 'staff' }] },
);

export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the invitation mail' }),
    password: NewPassword,
    first_name: Text(150),
    last_name: Text(150),
  },
  {
    examples: [
      {
        token: 'Vb0k3m1fQWm6S8n0d2n0Yh1Qv2cX9yJm4b7Jq0tL5aE',
        password: 'paddle-in-the-bay',
        first_name: 'Rui',
        last_name: 'Costa',
      },
    ],
  },
);

export const ChangeRoleBody = Type.Object({ role: InvitedRole }, { examples: [{ role: 'manager' }] });

export const UserIdParams = Type.Object({ user_id: Type.Integer({ minimum: 1, maximum: MAX_ID }) });
