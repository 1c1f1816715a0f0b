import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// Word-prefix text search over a listing's title, description and location (the public lists' `search`).
// A word is a run of letters and digits; everything else separates words. Words are compared with case
// and accents folded. Both databases index the same words, so a query matches the same listings on both
// (the query side: modules/catalog/listing-search.ts).
//
// SQLite: an external-content FTS5 table over the three columns (unicode61 splits on anything that is not
// a letter or digit; `remove_diacritics 2` folds accents), kept in step with listings by triggers and
// queried with prefix tokens, its rowid being the listing's id.
//
// PostgreSQL: a GIN index over a tsvector of the same words. The words are made by an immutable SQL
// function rather than by to_tsvector's parser, which keeps e-mail addresses, URLs and decimals ("4.3") as
// single tokens where FTS5 splits them. Accents are folded by Unicode decomposition and removal of the
// combining diacritical marks (as FTS5 does: `unaccent` would also rewrite letters such as ø → o and
// ß → ss, which FTS5 leaves, and is not immutable), letters and digits are classified and lower-cased by
// the ICU root collation, so neither depends on the database's own locale (whose C ctype knows only
// ASCII). An expression index: the listings table gains no column. The function is declared costly, as it
// is (it decomposes and splits three texts per row): the planner estimates every prefix query to match a
// fixed share of the rows, and with a cheap function it answered a LIMIT page by walking the created_at
// index and computing the document of every row of the kind, which for a word no listing has meant all of
// them; priced as it is, the GIN index answers every search.

const COMBINING_MARKS = '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]';

export async function up(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create function listing_search_document(title text, description text, location text)
      returns tsvector language sql immutable parallel safe strict cost 10000 as $$
        select array_to_tsvector(array_remove(regexp_split_to_array(
          lower(regexp_replace(normalize(title || ' ' || description || ' ' || location, nfd)
            collate "und-x-icu", ${sql.lit(COMBINING_MARKS)}, '', 'g')),
          '[^[:alnum:]]+'), ''))
      $$`.execute(db);
    await sql`create index listings_search_idx on listings
      using gin (listing_search_document(title, description, location))`.execute(db);
    return;
  }
  await sql`create virtual table listings_search using fts5(
      title, description, location,
      content = 'listings', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2'
    )`.execute(db);
  // The external-content table's own 'delete' command needs the old values, which the triggers have.
  await sql`create trigger listings_search_insert after insert on listings begin
      insert into listings_search (rowid, title, description, location)
        values (new.id, new.title, new.description, new.location);
    end`.execute(db);
  await sql`create trigger listings_search_delete after delete on listings begin
      insert into listings_search (listings_search, rowid, title, description, location)
        values ('delete', old.id, old.title, old.description, old.location);
    end`.execute(db);
  await sql`create trigger listings_search_update after update of title, description, location on listings begin
      insert into listings_search (listings_search, rowid, title, description, location)
        values ('delete', old.id, old.title, old.description, old.location);
      insert into listings_search (rowid, title, description, location)
        values (new.id, new.title, new.description, new.location);
    end`.execute(db);
  // the listings written before this migration
  await sql`insert into listings_search (listings_search) values ('rebuild')`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index listings_search_idx`.execute(db);
    await sql`drop function listing_search_document(text, text, text)`.execute(db);
    return;
  }
  for (const event of ['insert', 'delete', 'update'])
    await sql`drop trigger ${sql.raw(`listings_search_${event}`)}`.execute(db);
  await sql`drop table listings_search`.execute(db);
}
