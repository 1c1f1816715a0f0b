import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

// Column shapes shared by every migration, so both databases get the same schema from one definition.

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed against no Database
export type AnyDb = Kysely<any>;

export function withId<T extends string>(db: AnyDb, table: CreateTableBuilder<T, never>) {
  return dialectOf(db) === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
export const emptyText = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
