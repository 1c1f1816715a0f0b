import {
  type Compilable,
  type CompiledQuery,
  type InsertQueryBuilder,
  type InsertResult,
  type QueryResult,
  sql,
} from 'kysely';
import type { Database, Db, Dialect } from './database.ts';
import { dialectOf } from './dialect.ts';
import { joinGroupCommitAsStatement } from './group-commit.ts';
import { prepareOnPostgres } from './postgres.ts';
import { executeCompiled } from './sqlite.ts';
import { isTransaction } from './transactions.ts';

// The Kysely builder is how queries are written. A hot query (one that runs on nearly every request of a
// busy route) is written with the same builder, wrapped in preparedQuery or preparedInsert: building a
// Kysely query costs several times what running a point lookup does, so these build and compile their
// SQL once per dialect and each call only swaps in its arguments. On PostgreSQL they run as named
// prepared statements (prepareOnPostgres); on SQLite directly on the connection whenever that is safe
// (directSqliteConnection), skipping Kysely's queue for the one connection.

/** A value a prepared query takes: a column value, or on PostgreSQL an array of them (one per row). */
type Arg = string | number | null | readonly (string | number | null)[];

/**
 * A hot query, built once: `build` receives stand-ins for the arguments and must pass them into the query
 * as plain values (compared, inserted), never inspect or transform them. Returns the rows.
 */
export function preparedQuery<Args extends Record<string, Arg>, Row>(
  build: (db: Db, args: Args) => Compilable<Row>,
  argNames: readonly (keyof Args & string)[],
): (db: Db, args: Args) => Promise<Row[]> {
  const bind = compiledOnce(build, argNames);
  return async (db, args) => (await executeCompiled(db, bind(db, dialectOf(db), args))).rows;
}

export interface PreparedInsertOptions {
  /**
   * Share the commit of the units of work of the same turn (see TransactionOptions.groupCommit), as one
   * statement without a savepoint of its own; outside a transaction on SQLite only.
   */
  groupCommit?: boolean;
}

/**
 * Runs one write statement sharing the commit of its turn's group (group-commit.ts) on SQLite outside a
 * transaction; anywhere else (PostgreSQL, or inside the caller's transaction) as it is.
 */
export function executeSharingCommit<Row>(db: Db, statement: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  if (dialectOf(db) === 'sqlite' && !isTransaction(db)) return joinGroupCommitAsStatement(db, statement);
  return executeCompiled(db, statement);
}

/**
 * A hot insert of one row, built once like preparedQuery; resolves with the new row's id (see
 * insertReturningId for the rule).
 */
export function preparedInsert<Args extends Record<string, Arg>, Table extends keyof Database & string>(
  build: (db: Db, args: Args) => InsertQueryBuilder<Database, Table, InsertResult>,
  argNames: readonly (keyof Args & string)[],
  options: PreparedInsertOptions = {},
): (db: Db, args: Args) => Promise<number> {
  const bind = compiledOnce((db, args: Args) => withNewId(db, build(db, args)), argNames);
  const groupCommit = options.groupCommit === true;
  return (db, args) => {
    const dialect = dialectOf(db);
    const statement = bind(db, dialect, args);
    return (groupCommit ? executeSharingCommit(db, statement) : executeCompiled(db, statement)).then(newIdOf);
  };
}

/**
 * Runs an insert of one row and returns the new row's id. The rule for every insert that needs its id:
 * RETURNING on PostgreSQL; on SQLite the plain insert, whose row id the driver reports anyway, because
 * SQLite's RETURNING first collects the rows in a table of its own and only then hands them out.
 */
export async function insertReturningId<Table extends keyof Database & string>(
  db: Db,
  insert: InsertQueryBuilder<Database, Table, InsertResult>,
): Promise<number> {
  return newIdOf(await executeCompiled(db, withNewId(db, insert).compile()));
}

function withNewId<Table extends keyof Database & string>(
  db: Db,
  insert: InsertQueryBuilder<Database, Table, InsertResult>,
): Compilable<{ id: number }> {
  if (dialectOf(db) === 'postgres') return insert.returning(sql<number>`id`.as('id'));
  return insert as unknown as Compilable<{ id: number }>;
}

function newIdOf(result: QueryResult<{ id: number }>): number {
  return result.insertId === undefined ? result.rows[0].id : Number(result.insertId);
}

/** `build`'s query compiled once per dialect; each call binds its arguments into a copy of it. */
function compiledOnce<Args extends Record<string, Arg>, Row>(
  build: (db: Db, args: Args) => Compilable<Row>,
  argNames: readonly (keyof Args & string)[],
): (db: Db, dialect: Dialect, args: Args) => CompiledQuery<Row> {
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
      throw new Error(`preparedQuery: not every argument of ${argNames.join(', ')} reached the query`);
    const entry = { query, slots };
    compiled.set(dialect, entry);
    return entry;
  }

  return (db, dialect, args) => {
    const { query, slots } = compiled.get(dialect) ?? prepare(db, dialect);
    const parameters = query.parameters.slice();
    for (const [index, name] of slots) parameters[index] = args[name];
    return { ...query, parameters };
  };
}
