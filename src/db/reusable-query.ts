import {
  type Compilable,
  type CompiledQuery,
  type InsertQueryBuilder,
  type InsertResult,
  type QueryResult,
  sql,
} from 'kysely';
import { type DirectConnection, dialectOf, directSqliteConnection, prepareOnPostgres } from './create-db.ts';
import type { Database, Db, Dialect } from './database.ts';

type Arg = string | number | null;

/**
 * A query whose SQL is built and compiled once per dialect; each call only swaps in its arguments.
 * For the hottest paths: building a Kysely query costs several times what running a point lookup does.
 * `build` receives stand-ins for the arguments and must pass them into the query as plain values
 * (compared, inserted), never inspect or transform them.
 *
 * On SQLite the statement runs on the connection directly whenever that is safe (see
 * directSqliteConnection): Kysely's queue around the one connection cost about 3 µs per query
 * (availability checks, four queries: -17 % CPU). Everything else goes through Kysely.
 */
export function reusableQuery<Args extends Record<string, Arg>, Row>(
  build: (db: Db, args: Args) => Compilable<Row>,
  argNames: readonly (keyof Args & string)[],
): (db: Db, args: Args) => Promise<Row[]> {
  const bind = reusableStatement(build, argNames);
  return async (db, args) => runCompiled(db, bind(db, args));
}

/**
 * reusableQuery's compiled statement with the call's arguments bound, not run: for a caller that hands
 * the statement on (a click's insert goes to group commit, see inSharedStatement).
 */
export function reusableStatement<Args extends Record<string, Arg>, Row>(
  build: (db: Db, args: Args) => Compilable<Row>,
  argNames: readonly (keyof Args & string)[],
): (db: Db, args: Args) => CompiledQuery<Row> {
  const compiled = new Map<Dialect, { query: CompiledQuery<Row>; slots: [number, keyof Args][] }>();
  const standIns = Object.fromEntries(argNames.map((name) => [name, `\u0000${name}\u0000`]));

  function prepare(db: Db, dialect: Dialect) {
    const query = build(db, standIns as Args).compile();
    if (dialect === 'postgres') prepareOnPostgres(query.sql);
    const slots: [number, keyof Args][] = [];
    query.parameters.forEach((value, index) => {
      const name = argNames.find((n) => standIns[n] === value);
      if (name) slots.push([index, name]);
    });
    if (new Set(slots.map(([, name]) => name)).size !== argNames.length)
      throw new Error(`reusableQuery: not every argument of ${argNames.join(', ')} reached the query`);
    const entry = { query, slots };
    compiled.set(dialect, entry);
    return entry;
  }

  return (db, args) => {
    const dialect = dialectOf(db);
    const { query, slots } = compiled.get(dialect) ?? prepare(db, dialect);
    const parameters = query.parameters.slice();
    for (const [index, name] of slots) parameters[index] = args[name];
    return { ...query, parameters };
  };
}

/**
 * Runs a compiled query and returns its rows: on SQLite directly on the connection whenever that is safe
 * (see directSqliteConnection), otherwise through Kysely.
 */
export async function runCompiled<Row>(db: Db, query: CompiledQuery<Row>): Promise<Row[]> {
  return (await executeCompiled(db, query)).rows;
}

/**
 * runCompiled with the whole result: for a statement without RETURNING, Kysely's `insertId` (the new row's
 * id on SQLite) and `numAffectedRows`.
 */
export async function executeCompiled<Row>(db: Db, query: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  const connection = directSqliteConnection(db);
  if (connection) return executeOn(connection, query);
  return db.executeQuery<Row>(query);
}

/**
 * An insert that yields its new row's id (read it with insertedId): with RETURNING on PostgreSQL; as it is
 * on SQLite, which reports the row id of an insert anyway. SQLite's RETURNING first collects the rows in a
 * table of its own and then hands them out: a click's insert cost ~1.6 µs more with it (9.4 against 7.8
 * µs, twenty to a transaction).
 */
export function returningNewId<Table extends keyof Database & string>(
  db: Db,
  insert: InsertQueryBuilder<Database, Table, InsertResult>,
): Compilable<{ id: number }> {
  if (dialectOf(db) === 'postgres') return insert.returning(sql<number>`id`.as('id'));
  return insert as unknown as Compilable<{ id: number }>;
}

/** The id of the row written by an insert of returningNewId. */
export function insertedId(result: QueryResult<{ id: number }>): number {
  return result.insertId === undefined ? result.rows[0].id : Number(result.insertId);
}

/** Runs a compiled query on a SQLite connection directly, synchronously; returns its rows. */
export function runOn<Row>(connection: DirectConnection, query: CompiledQuery<Row>): Row[] {
  return executeOn(connection, query).rows;
}

/** runOn with the whole result, as Kysely's SQLite driver gives it. */
export function executeOn<Row>(connection: DirectConnection, query: CompiledQuery<Row>): QueryResult<Row> {
  const statement = connection.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}
