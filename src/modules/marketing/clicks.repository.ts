import type { Db, ListingClicksTable } from '../../db/database.ts';
import { inSharedTransaction } from '../../db/group-commit.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import { TRACKING_PARAMS } from './traffic.ts';

export type ClickValues = Omit<ListingClicksTable, 'id'>;

const CLICK_COLUMNS = [
  'listing_id',
  'listing_kind',
  'vendor_id',
  'traffic_type',
  'source',
  ...TRACKING_PARAMS,
  'referrer',
  'user_id',
  'created_at',
] as const satisfies readonly (keyof ClickValues)[];

// Every detail view writes a click: the insert's SQL is compiled once (see reusableQuery).
const insertClickQuery = reusableQuery(
  (db, values: ClickValues) => db.insertInto('listing_clicks').values(values).returning('id'),
  CLICK_COLUMNS,
);

/**
 * Stores one click and returns its id. Clicks arriving together are committed together (see
 * inSharedTransaction): under load the detail views of one moment share one SQLite transaction.
 */
export function insertClick(db: Db, values: ClickValues): Promise<number> {
  return inSharedTransaction(
    db,
    async (trx) => {
      const [row] = await insertClickQuery(trx, values);
      return row.id;
    },
    { oneStatement: true },
  );
}

// A booking request naming its click reads it for attribution.
const clickByIdQuery = reusableQuery(
  (db, { id }: { id: number }) =>
    db
      .selectFrom('listing_clicks')
      .select(['id', 'listing_id', 'listing_kind', 'traffic_type', 'created_at'])
      .where('id', '=', id),
  ['id'],
);

export async function findClickById(db: Db, id: number) {
  const [row] = await clickByIdQuery(db, { id });
  return row;
}
