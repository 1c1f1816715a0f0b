import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MANAGERS } from '../../http/team-roles.ts';
import { vendorCollection } from '../../http/vendor-collection.ts';
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
  vendorCollection(app, {
    path: '/vendor/promo-codes/',
    tags,
    roles: MANAGERS,
    noun: ['promo code', 'promo codes'],
    schemas: {
      page: PromoCodePage,
      item: PromoCodeSchema,
      create: CreatePromoCodeBody,
      update: UpdatePromoCodeBody,
    },
    describe: {
      list: 'Newest first, each with its redemptions now.',
      update:
        'A change applies to requests made after it; bookings keep the price they were requested at. ' +
        'is_active false deactivates it.',
      delete:
        'Its bookings keep their price and promo_code, and no longer count as its redemptions. To stop ' +
        'a code while keeping its count, PATCH is_active false.',
    },
    list: (caller, page) => promos.listPromoCodes(deps, caller, page),
    create: (caller, body) => promos.createPromoCode(deps, caller, body),
    get: (caller, id) => promos.getPromoCode(deps, caller, id),
    update: (caller, id, body) => promos.updatePromoCode(deps, caller, id, body),
    remove: (caller, id) => promos.deletePromoCode(deps, caller, id),
  });
};
