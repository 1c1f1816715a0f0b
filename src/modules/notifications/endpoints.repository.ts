import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db, NotificationDeliveriesTable, NotificationEndpointsTable } from '../../db/database.ts';
import type { Page } from '../../http/pagination.ts';
import type { EndpointRow } from './channel.ts';

// The vendor's side of the notification tables: endpoints and their delivery log. The outbox worker's
// claims and outcomes are its own repository's.

export type { EndpointRow };

/** A webhook delivery with the type and public id of its event, as the delivery log shows it. */
export type DeliveryLogRow = Selectable<NotificationDeliveriesTable> & {
  event_public_id: string;
  event_type: string;
};

/** An endpoint by id, whoever's it is (the outbox worker reads the endpoint of each attempt). */
export async function findEndpoint(db: Db, id: number): Promise<EndpointRow | undefined> {
  return db.selectFrom('notification_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findVendorEndpoint(
  db: Db,
  vendorId: number,
  id: number,
): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('notification_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .executeTakeFirst();
}

export async function countVendorEndpoints(db: Db, vendorId: number): Promise<number> {
  const row = await db
    .selectFrom('notification_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('vendor_id', '=', vendorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listVendorEndpoints(db: Db, vendorId: number, page: Page): Promise<EndpointRow[]> {
  return db
    .selectFrom('notification_endpoints')
    .selectAll()
    .where('vendor_id', '=', vendorId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function insertEndpoint(
  db: Db,
  values: Insertable<NotificationEndpointsTable>,
): Promise<EndpointRow> {
  return db.insertInto('notification_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateVendorEndpoint(
  db: Db,
  vendorId: number,
  id: number,
  values: Updateable<NotificationEndpointsTable>,
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('notification_endpoints')
    .set(values)
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Puts `secret` in place of the endpoint's secret, which becomes its previous secret until
 * `previousExpiresAt`, in one statement: of two rotations at once, the later one keeps the earlier one's
 * secret as its previous, never a secret nobody was shown.
 */
export async function rotateVendorEndpointSecret(
  db: Db,
  vendorId: number,
  id: number,
  values: { secret: string; previousExpiresAt: number; now: number },
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('notification_endpoints')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_expires_at: values.previousExpiresAt,
      secret: values.secret,
      updated_at: values.now,
    }))
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the endpoint; its deliveries go with it (foreign key cascade). */
export async function deleteVendorEndpoint(db: Db, vendorId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('notification_endpoints')
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function countEndpointDeliveries(db: Db, endpointId: number): Promise<number> {
  const row = await db
    .selectFrom('notification_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const deliveryLog = (db: Db) =>
  db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notification_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select(['e.public_id as event_public_id', 'e.type as event_type']);

/** An endpoint's deliveries, newest first. */
export async function listEndpointDeliveries(
  db: Db,
  endpointId: number,
  page: Page,
): Promise<DeliveryLogRow[]> {
  return deliveryLog(db)
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** A webhook delivery to one of the vendor's endpoints, and whether that endpoint is active. */
export async function findVendorDelivery(
  db: Db,
  vendorId: number,
  id: number,
): Promise<(DeliveryLogRow & { endpoint_is_active: number }) | undefined> {
  return deliveryLog(db)
    .innerJoin('notification_endpoints as n', 'n.id', 'd.endpoint_id')
    .select('n.is_active as endpoint_is_active')
    .where('d.id', '=', id)
    .where('n.vendor_id', '=', vendorId)
    .executeTakeFirst();
}

export async function insertDelivery(
  db: Db,
  values: Insertable<NotificationDeliveriesTable>,
): Promise<Selectable<NotificationDeliveriesTable>> {
  return db.insertInto('notification_deliveries').values(values).returningAll().executeTakeFirstOrThrow();
}
