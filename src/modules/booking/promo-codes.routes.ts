import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/auth.ts';
import { PageQuery, pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import {
  CreatePromoCodeBody,
  PromoCodePage,
  PromoCodeSchema,
  UpdatePromoCodeBody,
} from './prices.schemas.ts';
import * as promos from './promo-codes.service.ts';

const tags = ['promo codes'];

/** A vendor's promo codes (decisions §21), under /api/v1/booking/vendor/promo-codes/. */
export const promoCodeRoutes: FastifyPluginAsyncTypebox<{ deps: promos.PromoCodesDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/vendor/promo-codes/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "List the caller's promo codes",
        description: 'Newest first, each with its redemptions now.',
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(PromoCodePage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await promos.listPromoCodes(deps, callerOf(request), page);
      return paginated(request, page, count, results);
    },
  );

  app.post(
    '/vendor/promo-codes/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Create a promo code',
        body: CreatePromoCodeBody,
        response: { 201: Ref(PromoCodeSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await promos.createPromoCode(deps, callerOf(request), request.body)),
  );

  app.get(
    '/vendor/promo-codes/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Get one of the caller’s promo codes',
        params: IdParams,
        response: { 200: Ref(PromoCodeSchema) },
      },
    },
    async (request) => promos.getPromoCode(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/vendor/promo-codes/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Change a promo code',
        description:
          'A change applies to requests made after it; bookings keep the price they were requested at. ' +
          'is_active false deactivates it.',
        params: IdParams,
        body: UpdatePromoCodeBody,
        'x-optional-body': true,
        response: { 200: Ref(PromoCodeSchema) },
      },
    },
    async (request) => promos.updatePromoCode(deps, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/vendor/promo-codes/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Delete a promo code',
        description:
          'Its bookings keep their price and promo_code, and no longer count as its redemptions. To stop ' +
          'a code while keeping its count, PATCH is_active false.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await promos.deletePromoCode(deps, callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
