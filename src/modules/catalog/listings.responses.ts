import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Page, paginated } from '../../http/pagination.ts';
import { ListCache } from './list-cache.ts';
import type { Listing, ListingView, PublicListings } from './listings.service.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * How the public list and detail answers become bytes: these are the two hottest reads, so neither
 * serializes what it has serialized before. One per app instance (catalogRoutes makes it), shared by every
 * kind and alias prefix.
 */
export class ListingResponses {
  /** encoded list bodies by the request's absolute URL, valid while the catalog version is unchanged */
  readonly #pages = new ListCache();
  /**
   * A detail listing's JSON, once per listing object: the catalog's lookup hands out the same frozen object
   * until the catalog changes, and a changed catalog gives a new object.
   */
  readonly #listingJson = new WeakMap<Listing, string>();

  /**
   * A public list page, serialized by the route's own response serializer and encoded once; while the
   * catalog version stands, the same request is answered with the same bytes.
   */
  async sendListPage(
    request: FastifyRequest,
    reply: FastifyReply,
    page: Page,
    listings: PublicListings,
  ): Promise<FastifyReply> {
    // the body's next/previous links are absolute URLs built from the request's own
    const key = `${request.protocol}://${request.host}${request.url}`;
    let body = listings.version === null ? undefined : this.#pages.get(key, listings.version);
    if (body === undefined) {
      const { count, results } = await listings.read();
      body = Buffer.from(reply.serialize(paginated(request, page, count, results)) as string);
      if (listings.version !== null) this.#pages.set(key, listings.version, body);
    }
    return reply.type(JSON_TYPE).send(body as never);
  }

  /**
   * A detail view: the view's own two click fields (a number and an enum value), then the listing's JSON,
   * which always has fields. `listingSchema` is the kind's listing response schema.
   */
  sendDetail(reply: FastifyReply, view: ListingView, listingSchema: object): FastifyReply {
    let json = this.#listingJson.get(view.listing);
    if (json === undefined) {
      json = reply.serializeInput(view.listing, listingSchema as Record<string, unknown>) as string;
      this.#listingJson.set(view.listing, json);
    }
    const { click } = view;
    const body = `{"marketing_click_id":${click.marketing_click_id},"click_traffic_type":${JSON.stringify(click.traffic_type)},${json.slice(1)}`;
    return reply.type(JSON_TYPE).send(body as never);
  }
}
