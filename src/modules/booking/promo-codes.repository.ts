import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db, PromoCodesTable } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect.ts';
import { newestFirstPage } from '../../db/page-query.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Page } from '../../http/pagination.ts';
import { holdsAt } from './booking.repository.ts';
import { ACTIVE_STATUSES } from './booking.state-machine.ts';
import type { PromoCode } from './promo-codes.ts';

export type PromoCodeRow = Selectable<PromoCodesTable>;

export const toPromoCode = (row: PromoCodeRow): PromoCode => ({
  id: row.id,
  vendorId: row.vendor_id,
  code: row.code,
  percentOff: row.percent_off,
  amountOffCents: row.amount_off_cents === null ? null : Number(row.amount_off_cents),
  validFrom: row.valid_from === null ? null : Number(row.valid_from),
  validUntil: row.valid_until === null ? null : Number(row.valid_until),
  maxRedemptions: row.max_redemptions,
  listingIds: row.listing_ids === null ? null : JSON.parse(row.listing_ids),
  isActive: row.is_active === 1,
});

// A request with a code reads it and counts its redemptions: both prepared once (preparedQuery).
const promoQuery = (locked: boolean) =>
  preparedQuery(
    (db, a: { vendorId: number; code: string }) => {
      const query = db
        .selectFrom('promo_codes')
        .selectAll()
        .where('vendor_id', '=', a.vendorId)
        .where('code', '=', a.code);
      return locked ? forUpdate(db, query) : query;
    },
    ['vendorId', 'code'],
  );
const vendorPromo = promoQuery(false);
const vendorPromoForUpdate = promoQuery(true);

/**
 * A code by its upper-case text: the vendor's own (by the unique index), else another vendor's (so a
 * request can say why it is refused). With `forUpdate` on PostgreSQL the vendor's row stays locked until
 * the transaction ends: the lock that serialises the redemptions of one code (taken after the listing's,
 * always in that order).
 */
export async function findPromoCodeByText(
  db: Db,
  vendorId: number,
  code: string,
  options: { forUpdate?: boolean } = {},
): Promise<PromoCodeRow | undefined> {
  const [own] = await (options.forUpdate ? vendorPromoForUpdate : vendorPromo)(db, { vendorId, code });
  if (own) return own;
  return db
    .selectFrom('promo_codes')
    .selectAll()
    .where('code', '=', code)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

// Counts at most `upTo` holding bookings: a request only asks whether a redemption is left, so a code used
// thousands of times costs a request no more than its limit, not every booking that ever carried it.
const heldRedemptions = preparedQuery(
  (db, a: { id: number; now: number; upTo: number }) =>
    db
      .selectFrom(
        db
          .selectFrom('bookings')
          .select('promo_code_id')
          .where('promo_code_id', '=', a.id)
          .where('status', 'in', ACTIVE_STATUSES)
          .where(holdsAt(a.now))
          .limit(a.upTo)
          .as('held'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n')),
  ['id', 'now', 'upTo'],
);

/**
 * The redemptions of one code at `now`, up to `upTo` (its max_redemptions: more make no difference to
 * whether one is left), counted from the index alone (bookings_promo_code_idx): its bookings that hold (see
 * redemptionsOf).
 */
export async function redemptionsOfCode(db: Db, id: number, now: number, upTo: number): Promise<number> {
  const [row] = await heldRedemptions(db, { id, now, upTo });
  return Number(row?.n ?? 0);
}

/**
 * The redemptions of each code at `now`: its bookings that hold (requested, approved or confirmed, their
 * hold not lapsed: holdsAt, the rule availability counts with), so a declined, cancelled or expired
 * booking gives its redemption back without a write.
 */
export async function redemptionsOf(
  db: Db,
  ids: readonly number[],
  now: number,
): Promise<Map<number, number>> {
  const counts = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const rows = await db
    .selectFrom('bookings')
    .select(['promo_code_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('promo_code_id', 'in', ids)
    .where('status', 'in', ACTIVE_STATUSES)
    .where(holdsAt(now))
    .groupBy('promo_code_id')
    .execute();
  for (const row of rows) counts.set(row.promo_code_id as number, Number(row.n));
  return counts;
}

export async function findVendorPromoCode(
  db: Db,
  vendorId: number,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<PromoCodeRow | undefined> {
  const query = db
    .selectFrom('promo_codes')
    .selectAll()
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId);
  return (options.forUpdate ? forUpdate(db, query) : query).executeTakeFirst();
}

export async function listVendorPromoCodes(db: Db, vendorId: number, page: Page) {
  return newestFirstPage<PromoCodeRow>(db.selectFrom('promo_codes').where('vendor_id', '=', vendorId), page);
}

export async function insertPromoCode(db: Db, values: Insertable<PromoCodesTable>): Promise<number> {
  const row = await db.insertInto('promo_codes').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePromoCode(db: Db, id: number, values: Updateable<PromoCodesTable>) {
  await db.updateTable('promo_codes').set(values).where('id', '=', id).execute();
}

/** Deletes a code; its bookings keep the code's text (promo_code) but no longer count against it. */
export async function deletePromoCode(db: Db, id: number) {
  await db.updateTable('bookings').set({ promo_code_id: null }).where('promo_code_id', '=', id).execute();
  await db.deleteFrom('promo_codes').where('id', '=', id).execute();
}

/** Which of `keys` are listings of the vendor (archived ones are not). */
export async function vendorListingKeys(db: Db, vendorId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('listings')
    .select(['id', 'kind'])
    .where('vendor_id', '=', vendorId)
    .where('id', 'in', ids)
    .where('archived_at', 'is', null)
    .execute();
}
