import { CompiledQuery } from 'kysely';
import { dialectOf, prepareOnPostgres } from '../../db/create-db.ts';
import type { Db, ListingClicksTable } from '../../db/database.ts';
import { inSharedStatement } from '../../db/group-commit.ts';
import {
  executeCompiled,
  insertedId,
  returningNewId,
  reusableQuery,
  reusableStatement,
} from '../../db/reusable-query.ts';
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
  'created_at',
] as const satisfies readonly (keyof ClickValues)[];

// Every detail view writes a click: the insert's SQL is compiled once (see reusableStatement).
const insertClickStatement = reusableStatement(
  (db, values: ClickValues) => returningNewId(db, db.insertInto('listing_clicks').values(values)),
  CLICK_COLUMNS,
);

/** PostgreSQL: one click on its own (a batch of one, or a click inside a transaction). */
async function insertOneClick(db: Db, values: ClickValues): Promise<number> {
  return insertedId(await executeCompiled(db, insertClickStatement(db, values)));
}

const INTEGER_COLUMNS: ReadonlySet<string> = new Set(['listing_id', 'vendor_id', 'user_id']);
const pgArrayType = (column: (typeof CLICK_COLUMNS)[number]) =>
  column === 'created_at' ? 'bigint[]' : INTEGER_COLUMNS.has(column) ? 'integer[]' : 'text[]';

/**
 * PostgreSQL: the clicks of a turn in one statement, one array parameter per column. The ids come from
 * the table's sequence in the rows' order (`order by ord`) and only grow within the statement, so sorted
 * they are the clicks' ids in the order given, whatever order RETURNING lists them in.
 */
const columnList = CLICK_COLUMNS.join(', ');
const INSERT_CLICKS_PG = `insert into listing_clicks (${columnList})
  select ${columnList}
  from unnest(${CLICK_COLUMNS.map((column, i) => `$${i + 1}::${pgArrayType(column)}`).join(', ')})
    with ordinality as click(${columnList}, ord)
  order by ord
  returning id`;
prepareOnPostgres(INSERT_CLICKS_PG);

async function insertClicksPg(db: Db, clicks: ClickValues[]): Promise<number[]> {
  const parameters = CLICK_COLUMNS.map((column) => clicks.map((click) => click[column]));
  const { rows } = await db.executeQuery<{ id: number }>(CompiledQuery.raw(INSERT_CLICKS_PG, parameters));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

const insertClickBatchedPg = batchPerTurn(insertClicksPg, insertOneClick);

/**
 * Stores one click and returns its id. Clicks arriving together are written together: on SQLite they
 * share one transaction (see inSharedStatement), on PostgreSQL one statement (see batchPerTurn), so
 * under load the detail views of one moment cost one commit, not one each.
 */
export function insertClick(db: Db, values: ClickValues): Promise<number> {
  if (dialectOf(db) === 'postgres') return insertClickBatchedPg(db, values);
  return inSharedStatement(db, insertClickStatement(db, values)).then(insertedId);
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
