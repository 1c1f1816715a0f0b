import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { addMissingListings, benchVendorId } from './seed-bench.ts';

// The bench's shared resource (decisions §22): one pool of kayaks used by several items, for the shared
// booking scenario and the usage endpoint's (bench/run.ts). The pool holds one kayak per item, so the
// scenario's requests (each window asked once per item) are all accepted, every one of them counted
// against the pool under its lock.

export const BENCH_SHARED_ITEMS = 8;
export const BENCH_RESOURCE_NAME = 'Bench kayaks';
export const benchSharedItemPublicId = (n: number) => `bench-shared-${String(n).padStart(2, '0')}`;

/** Adds the resource and the items sharing it that are missing; how many rows it added. */
export async function seedBenchResources(db: Kysely<Database>, now: number): Promise<number> {
  const vendorId = await benchVendorId(db);
  let resource = await db
    .selectFrom('resources')
    .select('id')
    .where('vendor_id', '=', vendorId)
    .where('name', '=', BENCH_RESOURCE_NAME)
    .executeTakeFirst();
  let added = 0;
  if (!resource) {
    resource = await db
      .insertInto('resources')
      .values({
        vendor_id: vendorId,
        name: BENCH_RESOURCE_NAME,
        quantity: BENCH_SHARED_ITEMS,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    added++;
  }
  const resourceId = resource.id;
  const wanted = Array.from({ length: BENCH_SHARED_ITEMS }, (_, i) => benchSharedItemPublicId(i + 1));
  const uses = JSON.stringify([{ resourceId, per: 'unit', amount: 1 }]);
  added += await addMissingListings(db, now, 'equipment', wanted, (publicId) => ({
    kind: 'equipment' as const,
    public_id: publicId,
    title: `Bench shared kayak ${publicId.slice(-2)}`,
    description: 'One of the kayaks of the shared pool.',
    details: '{}',
    location: 'Lisbon',
    price_cents: 4500,
    quantity: 1,
    resources: uses,
    is_active: 1 as const,
    archived_at: null,
  }));
  const items = await db.selectFrom('listings').select('id').where('public_id', 'in', wanted).execute();
  const refs = await db
    .selectFrom('listing_resource_refs')
    .select('listing_id')
    .where('resource_id', '=', resourceId)
    .execute();
  const missing = items.filter((i) => !refs.some((r) => r.listing_id === i.id));
  if (missing.length)
    await db
      .insertInto('listing_resource_refs')
      .values(missing.map((i) => ({ listing_id: i.id, resource_id: resourceId })))
      .execute();
  return added;
}
