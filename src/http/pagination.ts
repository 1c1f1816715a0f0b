import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { Named, Ref } from './schemas.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '1-based page number' })),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      description: `items per page (default ${DEFAULT_PAGE_SIZE})`,
    }),
  ),
};

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(query: { page?: number; page_size?: number }): Page {
  const page = query.page ?? 1;
  const limit = query.page_size ?? DEFAULT_PAGE_SIZE;
  return { page, limit, offset: (page - 1) * limit };
}

export interface Paginated<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** The list envelope, with absolute next/previous URLs that keep every other query parameter. */
export function paginated<T>(request: FastifyRequest, page: Page, count: number, results: T[]): Paginated<T> {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const linkTo = (n: number): string => {
    const target = new URL(url);
    target.searchParams.set('page', String(n));
    target.searchParams.set('page_size', String(page.limit));
    return target.toString();
  };
  const lastPage = Math.max(1, Math.ceil(count / page.limit));
  return {
    count,
    next: page.page < lastPage ? linkTo(page.page + 1) : null,
    previous: page.page > 1 ? linkTo(Math.min(page.page - 1, lastPage)) : null,
    results,
  };
}

/** The named response schema of a paginated list of a named `item` (`<item>Page`); one per item. */
export function PaginatedSchema<T extends TSchema>(item: T) {
  const { $id, examples = [] } = item as { $id?: string; examples?: unknown[] };
  return Named(
    `${$id}Page`,
    Type.Object(
      {
        count: Type.Integer({ description: 'items in every page together' }),
        next: Type.Union([Type.String(), Type.Null()], { description: 'absolute URL of the next page' }),
        previous: Type.Union([Type.String(), Type.Null()], {
          description: 'absolute URL of the previous page',
        }),
        results: Type.Array(Ref(item)),
      },
      {
        description: 'One page of a list, with links to its neighbours.',
        ...(examples.length > 0 && {
          examples: examples.map((example) => ({ count: 1, next: null, previous: null, results: [example] })),
        }),
      },
    ),
  );
}
