import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound, permissionDenied } from '../../http/errors.ts';
import { bodyErrors } from '../../http/validation.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime, HOUR_MS } from '../../lib/datetime.ts';
import {
  type Interval,
  normalizeOpeningHours,
  openingHoursErrors,
  parseOpeningHours,
} from '../../lib/opening-hours.ts';
import { recordPasswordResetRequest } from '../../outbox/events.ts';
import * as repo from './accounts.repository.ts';
import { StaffAccountInput } from './accounts.schemas.ts';
import { hashForTimingEqualisation, hashPassword, passwordProblems, verifyPassword } from './passwords.ts';
import { firstFreeSlug, slugify } from './slug.ts';
import { profileChangeRefusal } from './team-rules.ts';
import { issueToken, type TokenKeys, verifyToken } from './tokens.ts';
import {
  DEFAULT_CURRENCY,
  DEFAULT_TIME_ZONE,
  normaliseCurrency,
  normaliseTimeZone,
} from './vendor-locale.ts';

export interface AccountsDeps {
  db: Kysely<Database>;
  clock: Clock;
  keys: TokenKeys;
  /** the user behind an access token by id, through a cache of this app instance */
  authUserById: (db: Db, id: number) => Promise<AuthUser | undefined>;
}

/**
 * The accounts module's dependencies, with a user lookup whose cache belongs to this app instance: apps
 * built on different databases (tests) never share a cached user.
 */
export function createAccountsDeps(deps: Omit<AccountsDeps, 'authUserById'>): AccountsDeps {
  return {
    ...deps,
    authUserById: repo.cachedAuthUserLookup((row) => ({
      id: row.id,
      email: row.email,
      isVendor: row.is_vendor === 1,
      isStaff: row.is_staff === 1,
      vendorId: row.vendor_id,
      vendorRole: row.vendor_role,
    })),
  };
}

export const PROFILE_FIELDS = [
  'business_name',
  'description',
  'contact_phone',
  'contact_email',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'postal_code',
  'country',
  // the liability waiver every booking request accepts while it is not empty (decisions §23)
  'waiver_text',
] as const;

type ProfileField = (typeof PROFILE_FIELDS)[number];
/** The profile's text fields, and its currency and time zone (checked and normalised by localeOf). */
export type ProfileInput = Partial<Record<ProfileField | 'currency' | 'time_zone', string>>;

/**
 * How long the vendor's bookings hold their window unanswered or unpaid (decisions §11), in minutes, and
 * when equipment can be picked up and returned (decisions §20).
 */
export interface HoldSettings {
  request_ttl_minutes?: number;
  payment_ttl_minutes?: number;
  opening_hours?: unknown;
}

/**
 * The hold settings given in a profile write (the TTLs' range is the schema's; the hours are checked here,
 * 400 naming the day) in their stored form; absent ones stay absent.
 */
function holdSettingsOf(
  input: HoldSettings,
): Omit<HoldSettings, 'opening_hours'> & { opening_hours?: string | null } {
  const settings: Omit<HoldSettings, 'opening_hours'> & { opening_hours?: string | null } = {};
  if (input.request_ttl_minutes !== undefined) settings.request_ttl_minutes = input.request_ttl_minutes;
  if (input.payment_ttl_minutes !== undefined) settings.payment_ttl_minutes = input.payment_ttl_minutes;
  if (input.opening_hours !== undefined) {
    const errors = openingHoursErrors(input.opening_hours);
    if (Object.keys(errors).length) throw invalidFields(errors);
    settings.opening_hours =
      input.opening_hours === null
        ? null
        : JSON.stringify(normalizeOpeningHours(input.opening_hours as Record<string, Interval[]>));
  }
  return settings;
}

export interface UserInput {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  phone_number?: string;
}

// --- API objects, mapped from rows in one place ---------------------------------------------------------

export function toVendorProfile(row: repo.VendorProfileRow) {
  return {
    business_name: row.business_name,
    slug: row.slug,
    description: row.description,
    contact_phone: row.contact_phone,
    contact_email: row.contact_email,
    address_line1: row.address_line1,
    address_line2: row.address_line2,
    city: row.city,
    state: row.state,
    postal_code: row.postal_code,
    country: row.country,
    currency: row.currency,
    time_zone: row.time_zone,
    request_ttl_minutes: row.request_ttl_minutes,
    payment_ttl_minutes: row.payment_ttl_minutes,
    opening_hours: parseOpeningHours(row.opening_hours),
    waiver_text: row.waiver_text,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
export type VendorProfile = ReturnType<typeof toVendorProfile>;

function toUser(row: repo.UserRow, profile: repo.VendorProfileRow | undefined) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone_number: row.phone_number,
    is_vendor: row.is_vendor === 1,
    is_customer: row.is_vendor === 0,
    vendor_role: row.vendor_role,
    vendor_profile: profile ? toVendorProfile(profile) : null,
    date_joined: formatDateTime(row.date_joined),
  };
}
export type User = ReturnType<typeof toUser>;

// --- registration ---------------------------------------------------------------------------------------

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The currency and time zone given in a profile write, normalised (see vendor-locale.ts); absent ones stay
 * absent. Both are judged before anything is written, so one answer names every bad field.
 */
function localeOf(input: ProfileInput): { currency?: string; time_zone?: string } {
  const errors: Record<string, string> = {};
  const locale: { currency?: string; time_zone?: string } = {};
  if (input.currency !== undefined) {
    const currency = normaliseCurrency(input.currency);
    if (currency === null) errors.currency = `"${input.currency}" is not a known ISO 4217 currency code.`;
    else locale.currency = currency;
  }
  if (input.time_zone !== undefined) {
    const zone = normaliseTimeZone(input.time_zone);
    if (zone === null) errors.time_zone = `"${input.time_zone}" is not a known IANA time zone name.`;
    else locale.time_zone = zone;
  }
  if (Object.keys(errors).length) throw invalidFields(errors);
  return locale;
}

/** Refuses a new password that breaks a rule, naming `field` (the body field that carried it). */
export function checkPassword(password: string, email: string, field = 'password'): void {
  const problems = passwordProblems(password, email);
  if (problems.length) throw invalidFields({ [field]: problems });
}

export async function createUser(
  trx: Db,
  input: UserInput,
  isVendor: boolean,
  isStaff: boolean,
  now: number,
  hash: string,
) {
  try {
    return await repo.insertUser(trx, {
      email: normaliseEmail(input.email),
      password_hash: hash,
      first_name: input.first_name ?? '',
      last_name: input.last_name ?? '',
      phone_number: input.phone_number ?? '',
      is_vendor: isVendor ? 1 : 0,
      is_staff: isStaff ? 1 : 0,
      date_joined: now,
      updated_at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidFields({ email: 'A user with this email already exists.' });
    throw error;
  }
}

/**
 * Runs `write` with the first free slug for `businessName`; a concurrent writer taking the same slug
 * makes the unique index refuse it, and the next candidate is tried.
 */
async function withFreeSlug<T>(
  db: Kysely<Database>,
  businessName: string,
  exceptProfileId: number | undefined,
  write: (trx: Db, slug: string) => Promise<T>,
): Promise<T> {
  const base = slugify(businessName);
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(db, async (trx) => {
        const slug = firstFreeSlug(base, await repo.slugsLike(trx, base, exceptProfileId));
        return write(trx, slug);
      });
    } catch (error) {
      const slugTaken = isUniqueViolation(error) && /slug/.test(String((error as Error).message ?? ''));
      if (!slugTaken || attempt >= 5) throw error;
    }
  }
}

export async function registerCustomer(deps: AccountsDeps, input: UserInput): Promise<User> {
  checkPassword(input.password, input.email);
  const hash = await hashPassword(input.password);
  const now = deps.clock.now().getTime();
  const user = await inTransaction(deps.db, (trx) => createUser(trx, input, false, false, now, hash));
  return toUser(user, undefined);
}

export async function registerVendor(
  deps: AccountsDeps,
  input: UserInput & ProfileInput & HoldSettings,
): Promise<User & { vendor_profile: VendorProfile }> {
  checkPassword(input.password, input.email);
  const businessName = (input.business_name ?? '').trim();
  if (!businessName) throw invalidFields({ business_name: 'This field may not be blank.' });
  const locale = localeOf(input);
  const hash = await hashPassword(input.password);
  const now = deps.clock.now().getTime();
  return withFreeSlug(deps.db, businessName, undefined, async (trx, slug) => {
    const user = await createUser(trx, input, true, false, now, hash);
    const profile = await repo.insertVendorProfile(trx, {
      ...Object.fromEntries(PROFILE_FIELDS.map((f) => [f, (input[f] ?? '').trim()])),
      business_name: businessName,
      currency: locale.currency ?? DEFAULT_CURRENCY,
      time_zone: locale.time_zone ?? DEFAULT_TIME_ZONE,
      ...holdSettingsOf(input),
      user_id: user.id,
      slug,
      created_at: now,
      updated_at: now,
    } as Parameters<typeof repo.insertVendorProfile>[1]);
    // the account that registers the vendor is its team's owner (decisions §25)
    await repo.joinTeam(trx, user.id, profile.id, 'owner');
    const owner = { ...user, vendor_id: profile.id, vendor_role: 'owner' as const };
    return { ...toUser(owner, undefined), vendor_profile: toVendorProfile(profile) };
  });
}

/** Staff accounts exist only through the command line; they manage categories. */
/** A staff account from the command line, whose input no request schema has checked: checked here. */
export async function createStaff(deps: Pick<AccountsDeps, 'db' | 'clock'>, input: UserInput): Promise<User> {
  const errors = bodyErrors(StaffAccountInput, input);
  if (errors) throw new AppError('invalid', 'Invalid input.', { errors });
  checkPassword(input.password, input.email);
  const hash = await hashPassword(input.password);
  const now = deps.clock.now().getTime();
  const user = await inTransaction(deps.db, (trx) => createUser(trx, input, false, true, now, hash));
  return toUser(user, undefined);
}

// --- tokens ---------------------------------------------------------------------------------------------

export interface TokenPair {
  access: string;
  refresh: string;
}

async function issuePair(deps: AccountsDeps, trx: Db, userId: number): Promise<TokenPair> {
  const now = deps.clock.now().getTime();
  const access = await issueToken(deps.keys, userId, 'access', now);
  const refresh = await issueToken(deps.keys, userId, 'refresh', now);
  await repo.insertRefreshToken(trx, {
    jti: refresh.jti,
    user_id: userId,
    expires_at: refresh.expiresAt,
    created_at: now,
  });
  return { access: access.token, refresh: refresh.token };
}

const badCredentials = () =>
  new AppError('not_authenticated', 'No active account found with the given credentials');

export async function login(deps: AccountsDeps, email: string, password: string): Promise<TokenPair> {
  const user = await repo.findUserByEmail(deps.db, normaliseEmail(email));
  // An unknown email still pays for one hash verification, so timing does not tell which emails exist.
  const ok = await verifyPassword(user?.password_hash ?? (await hashForTimingEqualisation()), password);
  // a member removed from their team can no longer sign in: the same answer as a wrong password
  if (!user || !ok || user.deactivated_at !== null) throw badCredentials();
  return issuePair(deps, deps.db, user.id);
}

/**
 * Rotates a refresh token: the presented one is revoked and a new pair issued. Presenting an already
 * revoked token again means it leaked: every refresh token of that user is revoked.
 */
export async function refresh(deps: AccountsDeps, token: string): Promise<TokenPair> {
  const now = deps.clock.now().getTime();
  const { userId, jti } = await verifyToken(deps.keys, token, 'refresh', now);
  const outcome = await inTransaction(deps.db, async (trx) => {
    if (await repo.revokeRefreshToken(trx, jti, now)) {
      const user = await repo.findUserById(trx, userId);
      if (!user || user.deactivated_at !== null) return 'gone' as const;
      return issuePair(deps, trx, userId);
    }
    const stored = await repo.findRefreshToken(trx, jti);
    if (stored?.revoked_at != null) {
      await repo.revokeAllRefreshTokens(trx, stored.user_id, now);
      return 'reused' as const;
    }
    return 'gone' as const;
  });
  if (outcome === 'reused') throw new AppError('token_not_valid', 'Token has been revoked.');
  if (outcome === 'gone') throw new AppError('token_not_valid', 'Token is invalid or expired.');
  return outcome;
}

/**
 * Ends one session: the refresh token is revoked, so it can no longer be rotated (access tokens already
 * issued run out on their own). With `userId`, a token of another user is refused as invalid rather than
 * revoked: logging out is not a way to end somebody else's session.
 */
export async function logout(deps: AccountsDeps, token: string, userId?: number): Promise<void> {
  const now = deps.clock.now().getTime();
  const verified = await verifyToken(deps.keys, token, 'refresh', now);
  if (userId !== undefined && verified.userId !== userId)
    throw new AppError('token_not_valid', 'Token is invalid or expired.');
  await repo.revokeRefreshToken(deps.db, verified.jti, now);
}

/**
 * Resolves an access token to its user (the auth plugin's `authenticate`). The user is read once per
 * accounts version (see cacheVersion): a user changed or removed by any process is seen by the next
 * request.
 */
export async function authenticate(deps: AccountsDeps, token: string): Promise<AuthUser> {
  const { userId } = await verifyToken(deps.keys, token, 'access', deps.clock.now().getTime());
  const user = await deps.authUserById(deps.db, userId);
  if (!user) throw new AppError('token_not_valid', 'User not found.');
  return user;
}

// --- current user and vendor profile ---------------------------------------------------------------------

/** The caller and their vendor profile, on one snapshot. */
export async function getMe(deps: AccountsDeps, userId: number): Promise<User> {
  return inReadSnapshot(deps.db, async (db) => {
    const user = await repo.findUserById(db, userId);
    if (!user) throw notFound();
    return toUser(user, await profileOf(db, user.vendor_id));
  });
}

/** The profile of the vendor whose team the account is on (undefined: no vendor). */
const profileOf = async (db: Db, vendorId: number | null) =>
  vendorId === null ? undefined : repo.findProfileById(db, vendorId);

/** The profile of the caller's vendor, whoever of its team asks. */
async function callerProfile(db: Db, caller: AuthUser): Promise<repo.VendorProfileRow> {
  const profile = await profileOf(db, caller.vendorId);
  if (!profile) throw notFound('Vendor profile not found.');
  return profile;
}

export async function getOwnProfile(deps: AccountsDeps, caller: AuthUser): Promise<VendorProfile> {
  return toVendorProfile(await callerProfile(deps.db, caller));
}

export async function updateOwnProfile(
  deps: AccountsDeps,
  caller: AuthUser,
  input: ProfileInput & HoldSettings,
): Promise<VendorProfile> {
  const profile = await callerProfile(deps.db, caller);
  const locale = localeOf(input);
  const refusal = profileChangeRefusal(caller.vendorRole, profile, locale);
  if (refusal) throw permissionDenied(refusal);
  const changes: ProfileInput & ReturnType<typeof holdSettingsOf> = {
    ...locale,
    ...holdSettingsOf(input),
  };
  for (const field of PROFILE_FIELDS) if (input[field] !== undefined) changes[field] = input[field].trim();
  if (changes.business_name === '') throw invalidFields({ business_name: 'This field may not be blank.' });
  const now = deps.clock.now().getTime();
  const renamed = changes.business_name !== undefined && changes.business_name !== profile.business_name;
  if (!renamed)
    return toVendorProfile(await repo.updateProfile(deps.db, profile.id, { ...changes, updated_at: now }));
  return withFreeSlug(deps.db, changes.business_name!, profile.id, async (trx, slug) =>
    toVendorProfile(await repo.updateProfile(trx, profile.id, { ...changes, slug, updated_at: now })),
  );
}

export interface MeInput {
  first_name?: string;
  last_name?: string;
  phone_number?: string;
}
const ME_FIELDS = ['first_name', 'last_name', 'phone_number'] as const;

/** Changes the caller's own names and phone; fields not given stay, and an empty body changes nothing. */
export async function updateMe(deps: AccountsDeps, userId: number, input: MeInput): Promise<User> {
  const changes: MeInput = {};
  for (const field of ME_FIELDS) if (input[field] !== undefined) changes[field] = input[field].trim();
  if (!Object.keys(changes).length) return getMe(deps, userId);
  const user = await repo.updateUser(deps.db, userId, { ...changes, updated_at: deps.clock.now().getTime() });
  if (!user) throw notFound();
  return toUser(user, await profileOf(deps.db, user.vendor_id));
}

// --- passwords: change and reset --------------------------------------------------------------------------

/**
 * Sets a user's password hash and ends everything the old password gave: every refresh token (the web
 * session's cookie is one) and every reset token still usable. Access tokens already issued run out on
 * their own.
 */
async function replacePassword(trx: Db, userId: number, hash: string, now: number): Promise<void> {
  await repo.updateUser(trx, userId, { password_hash: hash, updated_at: now });
  await repo.revokeAllRefreshTokens(trx, userId, now);
  await repo.expirePasswordResetTokens(trx, userId, now);
}

export async function changePassword(
  deps: AccountsDeps,
  userId: number,
  input: { current_password: string; new_password: string },
): Promise<void> {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw notFound();
  if (!(await verifyPassword(user.password_hash, input.current_password)))
    throw invalidFields({ current_password: 'The current password is not correct.' });
  checkPassword(input.new_password, user.email, 'new_password');
  const hash = await hashPassword(input.new_password);
  const now = deps.clock.now().getTime();
  await inTransaction(deps.db, (trx) => replacePassword(trx, userId, hash, now));
}

const PASSWORD_RESET_TTL_MS = HOUR_MS;

/** Only this hash of a reset token is stored; the token itself exists in the mail alone. */
const resetTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A password reset request: one outbox event with the address, and nothing else. Whether an account has
 * that email is decided later by the outbox worker (issuePasswordResetToken), so every request does the
 * same work and gets the same answer in the same time: the route cannot tell which emails have accounts.
 */
export async function requestPasswordReset(deps: AccountsDeps, email: string): Promise<void> {
  const now = deps.clock.now().getTime();
  await inTransaction(deps.db, (trx) => recordPasswordResetRequest(trx, normaliseEmail(email), now));
}

/**
 * Issues a single-use reset token for the account with this email (module interface for the outbox
 * worker, in its transaction `trx`): only the token's hash is stored, valid one hour. Undefined when no
 * account has the email.
 */
export async function issuePasswordResetToken(
  trx: Db,
  email: string,
  now: number,
): Promise<{ token: string; userId: number; email: string } | undefined> {
  const user = await repo.findUserByEmail(trx, normaliseEmail(email));
  if (!user || user.deactivated_at !== null) return undefined;
  const token = randomBytes(32).toString('base64url');
  await repo.insertPasswordResetToken(trx, {
    user_id: user.id,
    token_hash: resetTokenHash(token),
    created_at: now,
    expires_at: now + PASSWORD_RESET_TTL_MS,
    used_at: null,
  });
  return { token, userId: user.id, email: user.email };
}

const badResetToken = () =>
  invalidFields({ token: 'This reset link is not valid: it was already used, has expired or is unknown.' });

/**
 * Sets a new password with a reset token. The token is found by its hash, checked, and then used by a
 * guarded update in the same transaction as the new password: of two simultaneous confirms with one token
 * exactly one succeeds.
 */
export async function confirmPasswordReset(
  deps: AccountsDeps,
  input: { token: string; new_password: string },
): Promise<void> {
  const now = deps.clock.now().getTime();
  const found = await repo.findPasswordResetToken(deps.db, resetTokenHash(input.token));
  if (!found || found.used_at !== null || found.expires_at <= now) throw badResetToken();
  checkPassword(input.new_password, found.email, 'new_password');
  const hash = await hashPassword(input.new_password);
  const done = await inTransaction(deps.db, async (trx) => {
    if (!(await repo.usePasswordResetToken(trx, found.id, now))) return false;
    await replacePassword(trx, found.user_id, hash, now);
    return true;
  });
  if (!done) throw badResetToken();
}

/** A vendor's time zone and currency by profile id (module interface for marketing's time series). */
export async function findVendorLocale(
  db: Db,
  vendorId: number,
): Promise<{ time_zone: string; currency: string } | undefined> {
  const profile = await repo.findProfileById(db, vendorId);
  return profile && { time_zone: profile.time_zone, currency: profile.currency };
}

/** The public face of a vendor, for storefronts and listings (module interface for catalog). */
export async function findVendorBySlug(db: Db, slug: string) {
  const profile = await repo.findProfileBySlug(db, slug);
  return profile ? { id: profile.id, profile: toVendorProfile(profile) } : undefined;
}

/** A vendor by id, as its profile shows it (module interface for the channels' OCTO supplier). */
export async function findVendorById(db: Db, id: number) {
  const profile = await repo.findProfileById(db, id);
  return profile ? { id: profile.id, profile: toVendorProfile(profile) } : undefined;
}
