import { sql } from 'kysely';
import type { Db, ListingClicksTable } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { preparedInsert, preparedQuery } from '../../db/prepared-query.ts';
import { batchPerTurn } from '../../db/turn-batch.ts';
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
  'is_bot',
  'created_at',
] as const satisfies readonly (keyof ClickValues)[];
type ClickColumn = (typeof CLICK_COLUMNS)[number];

const insertClickRow = (db: Db, values: ClickValues) => db.insertInto('listing_clicks').values(values);

// Every detail view writes a click: the insert is prepared once. On SQLite the clicks of one moment share
// the commit of their turn (group commit).
const insertClickGrouped = preparedInsert(insertClickRow, CLICK_COLUMNS, { groupCommit: true });

/** PostgreSQL: one click on its own (a batch of one, or a click inside a transaction). */
const insertOneClick = preparedInsert(insertClickRow, CLICK_COLUMNS);

/** Each click column as an array, one element per click (PostgreSQL's multi-row insert). */
type ClickArrays = { [C in ClickColumn]: ClickValues[C][] };

const INTEGER_COLUMNS: ReadonlySet<string> = new Set(['listing_id', 'vendor_id', 'user_id', 'is_bot']);
const pgArrayType = (column: ClickColumn) =>
  sql.raw(column === 'created_at' ? 'bigint[]' : INTEGER_COLUMNS.has(column) ? 'integer[]' : 'text[]');

/**
 * PostgreSQL: the clicks of a turn in one statement, one array parameter per column unnested into rows.
 * The ids come from the table's sequence in the rows' order (`order by ord`) and only grow within the
 * statement, so sorted they are the clicks' ids in the order given, whatever order RETURNING lists them in.
 */
const insertClicksPg = preparedQuery(
  (db, arrays: ClickArrays) =>
    db
      .insertInto('listing_clicks')
      .columns(CLICK_COLUMNS)
      .expression((eb) =>
        eb
          .selectFrom(
            sql<ClickValues & { ord: number }>`unnest(${sql.join(
              CLICK_COLUMNS.map((column) => sql`${arrays[column]}::${pgArrayType(column)}`),
            )}) with ordinality`.as<'click'>(
              sql`click(${sql.join([...CLICK_COLUMNS, 'ord'].map((column) => sql.id(column)))})`,
            ),
          )
          .select(CLICK_COLUMNS)
          .orderBy('ord'),
      )
      .returning('id'),
  CLICK_COLUMNS,
);

async function insertClicksTogetherPg(db: Db, clicks: ClickValues[]): Promise<number[]> {
  const arrays = Object.fromEntries(
    CLICK_COLUMNS.map((column) => [column, clicks.map((click) => click[column])]),
  ) as ClickArrays;
  const rows = await insertClicksPg(db, arrays);
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

const insertClickBatchedPg = batchPerTurn(insertClicksTogetherPg, insertOneClick);

/**
 * Stores one click and returns its id. Clicks arriving together are written together: on SQLite they
 * share one transaction (group commit), on PostgreSQL one statement (see batchPerTurn), so under load the
 * detail views of one moment cost one commit, not one each.
 */
export function insertClick(db: Db, values: ClickValues): Promise<number> {
  if (dialectOf(db) === 'postgres') return insertClickBatchedPg(db, values);
  return insertClickGrouped(db, values);
}

// A booking request naming its click reads it for attribution.
const clickByIdQuery = preparedQuery(
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
