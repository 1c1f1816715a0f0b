import type { VendorRole } from '../db/database.ts';

// The roles of a vendor's team (decisions §25) and the rules of the permission table, as pure functions:
// the auth hook (auth.ts) enforces a route's declared roles with teamRoleRefusal, and the route
// conventions (openapi.ts) refuse at start-up a vendor route whose declaration is missing or malformed.

export const VENDOR_ROLES = ['owner', 'manager', 'staff'] as const satisfies readonly VendorRole[];
export type { VendorRole };

/** The roles that may call one vendor route. */
export type TeamRoles = readonly VendorRole[];

/** The three declarations every vendor route picks from. The owner may do everything, so each has it. */
export const EVERY_MEMBER: TeamRoles = ['owner', 'manager', 'staff'];
/** Everything but the team, the money settings and channel keys: owner and managers. */
export const MANAGERS: TeamRoles = ['owner', 'manager'];
/** The team itself (and whatever else only the owner may do). */
export const OWNER_ONLY: TeamRoles = ['owner'];

export const isVendorRole = (value: unknown): value is VendorRole =>
  typeof value === 'string' && (VENDOR_ROLES as readonly string[]).includes(value);

/**
 * Why a member of role `role` may not call a route open to `roles`, or null when they may. A vendor
 * account with no role (none should exist: registration and joining both give one) may call nothing.
 */
export function teamRoleRefusal(roles: TeamRoles, role: VendorRole | null): string | null {
  if (role !== null && roles.includes(role)) return null;
  const who = role === null ? 'An account with no role on a team' : `A ${role} of this vendor's team`;
  return `${who} may not do this; it needs the role ${roles.join(' or ')}.`;
}

/**
 * The vendor operations a member of `role` may call, named as the OpenAPI document names them
 * (`GET /api/v1/booking/vendor/promo-codes/{id}/`), from the route table the auth hook enforces; documented
 * routes only (the misspelt alias paths are hidden).
 */
export function permittedOperations(
  routes: readonly { method: string; url: string; roles?: TeamRoles; schema?: { hide?: boolean } }[],
  role: VendorRole | null,
): string[] {
  return routes
    .filter(
      (r) => r.roles && !r.schema?.hide && r.method !== 'HEAD' && teamRoleRefusal(r.roles, role) === null,
    )
    .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
}

/**
 * What is wrong with a vendor route's declaration of roles, or null when it is sound: present, known
 * roles only, no repeats, and the owner among them (the owner may do everything).
 */
export function rolesDeclarationProblem(roles: unknown): string | null {
  if (roles === undefined) return 'declares no config.roles (which team roles may call it)';
  if (!Array.isArray(roles) || roles.length === 0) return 'declares config.roles that is not a list of roles';
  const unknown = roles.filter((r) => !isVendorRole(r));
  if (unknown.length) return `declares unknown roles ${unknown.map(String).join(', ')}`;
  if (new Set(roles).size !== roles.length) return 'declares a role twice';
  if (!roles.includes('owner')) return 'leaves out the owner, who may do everything';
  return null;
}
