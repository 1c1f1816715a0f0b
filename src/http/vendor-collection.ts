import type { FastifyInstance } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { type AuthUser, callerOf } from './auth.ts';
import { type Page, PageQuery, pageOf, paginated } from './pagination.ts';
import { IdParams, Ref } from './schemas.ts';
import type { TeamRoles } from './team-roles.ts';

// The five routes of a vendor's own collection (list, create, get, change, delete), declared once: the
// promo codes and resources a vendor keeps have the same paths, roles, paging and answers, and differ
// only in their schemas, words and service.

interface Collection<Create extends TSchema, Update extends TSchema, Item> {
  /** e.g. `/vendor/resources/`; one item is `${path}:id/` */
  path: string;
  tags: string[];
  roles: TeamRoles;
  /** the singular and plural nouns the OpenAPI summaries use */
  noun: [one: string, many: string];
  schemas: { page: TSchema; item: TSchema; create: Create; update: Update };
  /** what a reader of the OpenAPI document must know beyond the summary, per route */
  describe: { list: string; update?: string; delete?: string };
  list(caller: AuthUser, page: Page): Promise<{ count: number; results: Item[] }>;
  create(caller: AuthUser, body: Static<Create>): Promise<Item>;
  get(caller: AuthUser, id: number): Promise<Item>;
  update(caller: AuthUser, id: number, body: Static<Update>): Promise<Item>;
  remove(caller: AuthUser, id: number): Promise<void>;
}

export function vendorCollection<Create extends TSchema, Update extends TSchema, Item>(
  app: FastifyInstance,
  c: Collection<Create, Update, Item>,
): void {
  const [one, many] = c.noun;
  const config = { auth: 'vendor', roles: c.roles } as const;
  const itemPath = `${c.path}:id/`;
  const idOf = (request: { params: unknown }) => (request.params as Static<typeof IdParams>).id;

  app.get(
    c.path,
    {
      config,
      schema: {
        tags: c.tags,
        summary: `List the caller's ${many}`,
        description: c.describe.list,
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(c.schemas.page) },
      },
    },
    async (request) => {
      const page = pageOf(request.query as { page?: number; page_size?: number });
      const { count, results } = await c.list(callerOf(request), page);
      return paginated(request, page, count, results);
    },
  );
  app.post(
    c.path,
    {
      config,
      schema: {
        tags: c.tags,
        summary: `Create a ${one}`,
        body: c.schemas.create,
        response: { 201: Ref(c.schemas.item) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await c.create(callerOf(request), request.body as Static<Create>)),
  );
  app.get(
    itemPath,
    {
      config,
      schema: {
        tags: c.tags,
        summary: `Get one of the caller’s ${many}`,
        params: IdParams,
        response: { 200: Ref(c.schemas.item) },
      },
    },
    async (request) => c.get(callerOf(request), idOf(request)),
  );
  app.patch(
    itemPath,
    {
      config,
      // every member is optional, so an empty or absent body is a change of nothing
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: c.tags,
        summary: `Change a ${one}`,
        description: c.describe.update,
        params: IdParams,
        body: c.schemas.update,
        'x-optional-body': true,
        response: { 200: Ref(c.schemas.item) },
      },
    },
    async (request) => c.update(callerOf(request), idOf(request), request.body as Static<Update>),
  );
  app.delete(
    itemPath,
    {
      config,
      schema: {
        tags: c.tags,
        summary: `Delete a ${one}`,
        description: c.describe.delete,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await c.remove(callerOf(request), idOf(request));
      return reply.status(204).send(null);
    },
  );
}
