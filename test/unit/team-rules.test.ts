import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VendorRole } from '../../src/db/database.ts';
import {
  EVERY_MEMBER,
  MANAGERS,
  OWNER_ONLY,
  rolesDeclarationProblem,
  teamRoleRefusal,
  VENDOR_ROLES,
} from '../../src/http/team-roles.ts';
import {
  applyTeamChange,
  INVITATION_TTL_MS,
  invitationState,
  type Member,
  profileChangeRefusal,
  type TeamChange,
  teamChangeRefusal,
} from '../../src/modules/accounts/team-rules.ts';

// The team's rules (decisions §25) as pure functions: the permission table's check and declarations, the
// owner-only profile fields, the invitation's states, and "exactly one owner, always" over any sequence of
// changes the rules allow.

const role = fc.constantFrom<VendorRole>(...VENDOR_ROLES);
const declaration = fc.constantFrom(EVERY_MEMBER, MANAGERS, OWNER_ONLY);

describe('the permission table', () => {
  it('lets a role through exactly when the route declares it, and the owner through everywhere', () => {
    fc.assert(
      fc.property(declaration, role, (roles, r) => {
        expect(teamRoleRefusal(roles, r) === null).toBe(roles.includes(r));
        expect(teamRoleRefusal(roles, 'owner')).toBeNull();
      }),
    );
  });

  it('refuses a vendor account with no role on every route', () => {
    fc.assert(
      fc.property(declaration, (roles) => {
        expect(teamRoleRefusal(roles, null)).toMatch(/no role/);
      }),
    );
  });

  it('accepts exactly the non-empty declarations of known roles, without repeats, that include the owner', () => {
    const anyRoles = fc.array(fc.constantFrom('owner', 'manager', 'staff', 'guide', ''), { maxLength: 5 });
    fc.assert(
      fc.property(anyRoles, (roles) => {
        const sound =
          roles.length > 0 &&
          roles.every((r) => (VENDOR_ROLES as readonly string[]).includes(r)) &&
          new Set(roles).size === roles.length &&
          roles.includes('owner');
        expect(rolesDeclarationProblem(roles) === null).toBe(sound);
      }),
    );
    expect(rolesDeclarationProblem(undefined)).toMatch(/declares no config\.roles/);
    expect(rolesDeclarationProblem('owner')).toMatch(/not a list/);
  });
});

describe('owner-only profile fields', () => {
  const currency = fc.constantFrom('usd', 'eur', 'gbp');
  it('refuse a new currency from anyone but the owner, and never an unchanged or absent one', () => {
    fc.assert(
      fc.property(role, currency, fc.option(currency, { nil: undefined }), (r, current, given) => {
        const refused = profileChangeRefusal(r, { currency: current }, { currency: given }) !== null;
        expect(refused).toBe(r !== 'owner' && given !== undefined && given !== current);
      }),
    );
  });
});

describe('invitations', () => {
  it('are open until they expire, unless accepted or revoked first', () => {
    const instant = fc.integer({ min: 0, max: 10 * INVITATION_TTL_MS });
    fc.assert(
      fc.property(
        instant,
        fc.option(instant, { nil: null }),
        fc.option(instant, { nil: null }),
        instant,
        (created, accepted, revoked, now) => {
          const state = invitationState(
            { accepted_at: accepted, revoked_at: revoked, expires_at: created + INVITATION_TTL_MS },
            now,
          );
          if (accepted !== null) expect(state).toBe('accepted');
          else if (revoked !== null) expect(state).toBe('revoked');
          else expect(state).toBe(now < created + INVITATION_TTL_MS ? 'open' : 'expired');
        },
      ),
    );
  });
});

describe('the team', () => {
  const change: fc.Arbitrary<TeamChange> = fc.oneof(
    fc.record({
      kind: fc.constant('change_role' as const),
      role: fc.constantFrom('manager' as const, 'staff' as const),
    }),
    fc.constant({ kind: 'remove' as const }),
    fc.constant({ kind: 'make_owner' as const }),
  );
  const step = fc.record({ target: fc.nat(6), change });

  it('keeps exactly one owner over any sequence of changes the owner may make', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let team: readonly Member[] = [
          { id: 1, role: 'owner' },
          ...[2, 3, 4, 5, 6].map((id): Member => ({ id, role: id % 2 ? 'manager' : 'staff' })),
        ];
        for (const { target, change: c } of steps) {
          const actor = team.find((m) => m.role === 'owner')!;
          const member = team[target % team.length];
          if (teamChangeRefusal(actor, member, c) === null)
            team = applyTeamChange(team, actor.id, member.id, c);
          expect(team.filter((m) => m.role === 'owner')).toHaveLength(1);
        }
      }),
    );
  });

  it('lets only the owner change the team, and never their own role or membership', () => {
    fc.assert(
      fc.property(role, change, fc.boolean(), (r, c, self) => {
        const actor = { id: 1, role: r };
        const refusal = teamChangeRefusal(actor, self ? actor : { id: 2, role: 'staff' }, c);
        expect(refusal === null).toBe(r === 'owner' && !self);
      }),
    );
  });
});
