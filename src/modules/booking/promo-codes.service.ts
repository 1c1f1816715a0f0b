import type { Kysely, Updateable } from 'kysely';
import type { Database, Db, PromoCodesTable } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { formatMoney, parseMoney } from '../../lib/money.ts';
import type { ListingRef } from '../catalog/index.ts';
import { parseInstant } from './booking.input.ts';
import type { Discount } from './pricing.ts';
import * as repo from './promo-codes.repository.ts';
import { discountOf, type ListingKey, normalizePromoCode, type PromoCode, refusalOf } from './promo-codes.ts';

export interface PromoCodesDeps {
  db: Kysely<Database>;
  clock: Clock;
}

function toApi(promo: PromoCode, row: repo.PromoCodeRow, redemptions: number) {
  return {
    id: promo.id,
    code: promo.code,
    percent_off: promo.percentOff,
    amount_off: promo.amountOffCents === null ? null : formatMoney(promo.amountOffCents),
    valid_from: promo.validFrom === null ? null : formatDateTime(promo.validFrom),
    valid_until: promo.validUntil === null ? null : formatDateTime(promo.validUntil),
    max_redemptions: promo.maxRedemptions,
    redemptions,
    listing_ids: promo.listingIds,
    is_active: promo.isActive,
    created_at: formatDateTime(Number(row.created_at)),
    updated_at: formatDateTime(Number(row.updated_at)),
  };
}
export type PromoCodeApi = ReturnType<typeof toApi>;

async function withRedemptions(db: Db, rows: repo.PromoCodeRow[], now: number): Promise<PromoCodeApi[]> {
  const counts = await repo.redemptionsOf(
    db,
    rows.map((r) => r.id),
    now,
  );
  return rows.map((row) => toApi(repo.toPromoCode(row), row, counts.get(row.id) ?? 0));
}

const promoNotFound = () => notFound('Promo code not found.');
const vendorOf = (caller: AuthUser) => caller.vendorId ?? -1;

export interface PromoCodeInput {
  code?: string;
  percent_off?: number | null;
  amount_off?: string | number | null;
  valid_from?: string | null;
  valid_until?: string | null;
  max_redemptions?: number | null;
  listing_ids?: ListingKey[] | null;
  is_active?: boolean;
}

/**
 * The columns of a write from the fields present, checked as a whole against what is stored (`stored`
 * on a PATCH): exactly one of percent_off and amount_off, valid_until after valid_from, listing_ids the
 * vendor's own listings. A 400 naming every bad field.
 */
async function columnsOf(
  db: Db,
  vendorId: number,
  input: PromoCodeInput,
  stored?: repo.PromoCodeRow,
): Promise<Updateable<PromoCodesTable>> {
  const errors: Record<string, string> = {};
  const values: Updateable<PromoCodesTable> = {};
  if (input.code !== undefined) values.code = normalizePromoCode(input.code);
  if (input.percent_off !== undefined) values.percent_off = input.percent_off;
  if (input.amount_off !== undefined) {
    const cents = input.amount_off === null ? null : parseMoney(input.amount_off);
    if (cents === null && input.amount_off !== null)
      errors.amount_off = 'Enter a valid amount with at most two decimals, below 100000000.00.';
    else if (cents === 0) errors.amount_off = 'Enter an amount above 0.';
    else values.amount_off_cents = cents;
  }
  for (const field of ['valid_from', 'valid_until'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    try {
      values[field] = value === null ? null : parseInstant(field, value);
    } catch {
      errors[field] = 'Enter a valid ISO 8601 datetime, or null.';
    }
  }
  if (input.max_redemptions !== undefined) values.max_redemptions = input.max_redemptions;
  if (input.is_active !== undefined) values.is_active = input.is_active ? 1 : 0;
  if (input.listing_ids !== undefined) {
    const keys = input.listing_ids;
    if (keys !== null) {
      const found = await repo.vendorListingKeys(
        db,
        vendorId,
        keys.map((k) => k.id),
      );
      keys.forEach((key, i) => {
        if (!found.some((f) => f.id === key.id && f.kind === key.kind))
          errors[`listing_ids.${i}`] = `You have no ${key.kind} listing ${key.id}.`;
      });
    }
    values.listing_ids = keys === null ? null : JSON.stringify(keys.map((k) => ({ kind: k.kind, id: k.id })));
  }
  const merged = { ...stored, ...values };
  const percent = merged.percent_off ?? null;
  const amount = merged.amount_off_cents ?? null;
  if ((percent === null) === (amount === null) && !errors.amount_off) {
    const both = 'Give exactly one of percent_off and amount_off.';
    errors.percent_off = both;
    errors.amount_off = both;
  }
  const from = merged.valid_from ?? null;
  const until = merged.valid_until ?? null;
  if (from !== null && until !== null && Number(until) <= Number(from) && !errors.valid_until)
    errors.valid_until = 'valid_until must be after valid_from.';
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
  return values;
}

const duplicateCode = (code: string) => invalidFields({ code: `You already have a promo code ${code}.` });

/** Runs a write, turning the unique code's violation into a 400 on code. */
async function uniqueCode<T>(code: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error) && code !== undefined) throw duplicateCode(code);
    throw error;
  }
}

export async function createPromoCode(deps: PromoCodesDeps, caller: AuthUser, input: PromoCodeInput) {
  const vendorId = vendorOf(caller);
  const now = deps.clock.now().getTime();
  const values = await columnsOf(deps.db, vendorId, input);
  const code = values.code as string;
  const id = await uniqueCode(code, () =>
    repo.insertPromoCode(deps.db, {
      percent_off: null,
      amount_off_cents: null,
      valid_from: null,
      valid_until: null,
      max_redemptions: null,
      listing_ids: null,
      ...values,
      vendor_id: vendorId,
      code,
      created_at: now,
      updated_at: now,
    }),
  );
  return getPromoCode(deps, caller, id);
}

export async function getPromoCode(deps: PromoCodesDeps, caller: AuthUser, id: number) {
  return inReadSnapshot(deps.db, async (db) => {
    const row = await repo.findVendorPromoCode(db, vendorOf(caller), id);
    if (!row) throw promoNotFound();
    return (await withRedemptions(db, [row], deps.clock.now().getTime()))[0];
  });
}

export async function listPromoCodes(deps: PromoCodesDeps, caller: AuthUser, page: Page) {
  return inReadSnapshot(deps.db, async (db) => {
    const { rows, count } = await repo.listVendorPromoCodes(db, vendorOf(caller), page);
    return { count, results: await withRedemptions(db, rows, deps.clock.now().getTime()) };
  });
}

/** A PATCH, under the code's lock so it never interleaves with a redemption's check. */
export async function updatePromoCode(
  deps: PromoCodesDeps,
  caller: AuthUser,
  id: number,
  input: PromoCodeInput,
) {
  const vendorId = vendorOf(caller);
  await inTransaction(deps.db, async (trx) => {
    const stored = await repo.findVendorPromoCode(trx, vendorId, id, { forUpdate: true });
    if (!stored) throw promoNotFound();
    const values = await columnsOf(trx, vendorId, input, stored);
    await uniqueCode(values.code, () =>
      repo.updatePromoCode(trx, id, { ...values, updated_at: deps.clock.now().getTime() }),
    );
  });
  return getPromoCode(deps, caller, id);
}

export async function deletePromoCode(deps: PromoCodesDeps, caller: AuthUser, id: number) {
  await inTransaction(deps.db, async (trx) => {
    const stored = await repo.findVendorPromoCode(trx, vendorOf(caller), id, { forUpdate: true });
    if (!stored) throw promoNotFound();
    await repo.deletePromoCode(trx, id);
  });
}

/** A code a request redeems: its id and text to store on the booking, and its discount. */
export interface Redemption {
  id: number;
  code: string;
  discount: Discount;
}

/**
 * The code a request (or a quote) for `listing` gives, checked at `now` (refusalOf; 400 on promo_code
 * with the reason); null when none is given. With `lock` (a request, in its transaction, after the
 * listing's lock) the code's row is locked and its redemptions counted under the lock, so simultaneous
 * requests redeem it at most max_redemptions times.
 */
export async function redeemablePromo(
  db: Db,
  listing: Pick<ListingRef, 'kind' | 'id' | 'vendorId'>,
  given: string | null | undefined,
  now: number,
  lock: boolean,
): Promise<Redemption | null> {
  const text = given === null || given === undefined ? '' : normalizePromoCode(given);
  if (text === '') return null;
  const row = await repo.findPromoCodeByText(db, listing.vendorId, text, { forUpdate: lock });
  if (!row) throw invalidFields({ promo_code: 'Unknown promo code.' });
  const promo = repo.toPromoCode(row);
  const limit = promo.vendorId === listing.vendorId ? promo.maxRedemptions : null;
  const redemptions = limit === null ? 0 : await repo.redemptionsOfCode(db, promo.id, now, limit);
  const refusal = refusalOf(promo, listing, now, redemptions);
  if (refusal) throw invalidFields({ promo_code: refusal });
  return { id: promo.id, code: promo.code, discount: discountOf(promo) };
}
