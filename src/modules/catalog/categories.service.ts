import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { inReadSnapshot } from '../../db/transactions.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { slugify } from '../accounts/index.ts';
import * as repo from './categories.repository.ts';

export interface CategoriesDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export interface CategoryInput {
  name?: string;
  description?: string;
}

export function toCategory(row: repo.CategoryRow) {
  return { id: row.id, name: row.name, slug: row.slug, description: row.description };
}
export type Category = ReturnType<typeof toCategory>;

const categoryNotFound = () => notFound('Category not found.');

/**
 * The slug of a category name. A name without letters or digits has no slug, and an all-digit slug
 * could never be used in the `category` filter (digits there mean an id): both are refused.
 */
function slugOf(name: string): string {
  const slug = slugify(name);
  if (!/[a-z0-9]/i.test(name.normalize('NFKD')) || /^\d+$/.test(slug))
    throw invalidFields({ name: 'The name must contain at least one letter.' });
  return slug;
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidFields({ name: 'This field may not be blank.' });
  return trimmed;
}

async function writeUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw invalidFields({ name: 'A category with this name (or the same slug) already exists.' });
    throw error;
  }
}

export async function listCategories(deps: CategoriesDeps, page: Page) {
  // the count and the page on one snapshot
  const [count, rows] = await inReadSnapshot(deps.db, (db) =>
    Promise.all([repo.countCategories(db), repo.listCategories(db, page)]),
  );
  return { count, results: rows.map(toCategory) };
}

export async function getCategory(deps: CategoriesDeps, id: number): Promise<Category> {
  const row = await repo.findCategory(deps.db, id);
  if (!row) throw categoryNotFound();
  return toCategory(row);
}

export async function createCategory(
  deps: CategoriesDeps,
  input: CategoryInput & { name: string },
): Promise<Category> {
  const name = cleanName(input.name);
  const slug = slugOf(name);
  const now = deps.clock.now().getTime();
  const row = await writeUnique(() =>
    repo.insertCategory(deps.db, {
      name,
      slug,
      description: (input.description ?? '').trim(),
      created_at: now,
      updated_at: now,
    }),
  );
  return toCategory(row);
}

export async function updateCategory(
  deps: CategoriesDeps,
  id: number,
  input: CategoryInput,
): Promise<Category> {
  const changes: { name?: string; slug?: string; description?: string } = {};
  if (input.name !== undefined) {
    changes.name = cleanName(input.name);
    changes.slug = slugOf(changes.name);
  }
  if (input.description !== undefined) changes.description = input.description.trim();
  const now = deps.clock.now().getTime();
  const row = await writeUnique(() => repo.updateCategory(deps.db, id, { ...changes, updated_at: now }));
  if (!row) throw categoryNotFound();
  return toCategory(row);
}

const inUse = (count?: number) =>
  new AppError(
    'conflict',
    count
      ? `This category is used by ${count} listing(s) and cannot be deleted.`
      : 'This category is used by listings and cannot be deleted.',
  );

/** Deletes an unused category; one used by any listing, archived ones included, is a 409. */
export async function deleteCategory(deps: CategoriesDeps, id: number): Promise<void> {
  const used = await repo.countListingsInCategory(deps.db, id);
  if (used > 0) throw inUse(used);
  try {
    if (!(await repo.deleteCategory(deps.db, id))) throw categoryNotFound();
  } catch (error) {
    // a listing created between the check and the delete: the foreign key refuses the delete
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}
