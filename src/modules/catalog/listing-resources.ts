import type { Updateable } from 'kysely';
import type { Db, ListingsTable } from '../../db/database.ts';
import { parseExtras } from '../../lib/price-settings.ts';
import { normalizeResourceUses, parseResourceUses, resourceUsesErrors } from '../../lib/resource-uses.ts';

// A listing's shared resources (decisions §22) as the catalog writes them: `resources` checked and stored,
// every resource id of it and of the extras the vendor's own (400 naming the member), and the listing's
// references (listing_resource_refs) kept equal to them so a resource in use cannot be deleted.

/** Sets `values.resources` from the body (collecting member errors), and checks every id is the vendor's. */
export async function resourceColumns(
  db: Db,
  vendorId: number,
  body: { resources?: unknown; extras?: unknown },
  values: Updateable<ListingsTable>,
  errors: Record<string, string>,
): Promise<void> {
  if (body.resources !== undefined) {
    const found = resourceUsesErrors(body.resources);
    Object.assign(errors, found);
    if (Object.keys(found).length === 0)
      values.resources = JSON.stringify(normalizeResourceUses(body.resources as Record<string, unknown>[]));
  }
  const named: [string, number][] = [];
  if (values.resources !== undefined)
    parseResourceUses(values.resources).forEach((u, i) => {
      named.push([`resources.${i}.resource_id`, u.resourceId]);
    });
  if (typeof values.extras === 'string')
    parseExtras(values.extras).forEach((e, i) => {
      if (e.resourceId !== null) named.push([`extras.${i}.resource_id`, e.resourceId]);
    });
  if (named.length === 0) return;
  const ids = [...new Set(named.map(([, id]) => id))];
  const own = new Set(
    (
      await db
        .selectFrom('resources')
        .select('id')
        .where('vendor_id', '=', vendorId)
        .where('id', 'in', ids)
        .execute()
    ).map((r) => r.id),
  );
  for (const [field, id] of named) if (!own.has(id)) errors[field] = `You have no resource ${id}.`;
}

/** Rewrites the listing's references after a write that set its resources or extras. */
export async function refreshResourceRefs(db: Db, listingId: number, values: Updateable<ListingsTable>) {
  if (values.resources === undefined && values.extras === undefined) return;
  const row = await db
    .selectFrom('listings')
    .select(['resources', 'extras'])
    .where('id', '=', listingId)
    .executeTakeFirstOrThrow();
  const ids = new Set<number>(parseResourceUses(row.resources).map((u) => u.resourceId));
  for (const e of parseExtras(row.extras)) if (e.resourceId !== null) ids.add(e.resourceId);
  await db.deleteFrom('listing_resource_refs').where('listing_id', '=', listingId).execute();
  if (ids.size)
    await db
      .insertInto('listing_resource_refs')
      .values([...ids].map((resource_id) => ({ listing_id: listingId, resource_id })))
      .execute();
}
