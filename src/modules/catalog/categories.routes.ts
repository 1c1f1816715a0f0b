import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import * as schemas from './categories.schemas.ts';
import * as categories from './categories.service.ts';

const tags = ['categories'];

export const categoriesRoutes: FastifyPluginAsyncTypebox<{ deps: categories.CategoriesDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/categories/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'List categories, ordered by name',
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(schemas.CategoryPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await categories.listCategories(deps, page);
      return paginated(request, page, count, results);
    },
  );

  app.get(
    '/categories/:id/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Get a category',
        params: IdParams,
        response: { 200: Ref(schemas.CategorySchema) },
      },
    },
    async (request) => categories.getCategory(deps, request.params.id),
  );

  app.post(
    '/categories/',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Create a category (staff)',
        description: 'The slug is derived from the name.',
        body: schemas.CreateCategoryBody,
        response: { 201: Ref(schemas.CategorySchema) },
      },
    },
    async (request, reply) => reply.status(201).send(await categories.createCategory(deps, request.body)),
  );

  app.patch(
    '/categories/:id/',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Update a category (staff)',
        description: 'A new name re-derives the slug.',
        params: IdParams,
        body: schemas.UpdateCategoryBody,
        response: { 200: Ref(schemas.CategorySchema) },
      },
    },
    async (request) => categories.updateCategory(deps, request.params.id, request.body),
  );

  app.delete(
    '/categories/:id/',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Delete a category (staff)',
        description: 'A category used by any listing, archived ones included, is a 409.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
        'x-errors': [409],
      },
    },
    async (request, reply) => {
      await categories.deleteCategory(deps, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
