import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { inReadSnapshot } from '../../db/transactions.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { EVENT_TYPES } from '../../outbox/events.ts';
import * as repo from './endpoints.repository.ts';
import { ALL_EVENTS } from './endpoints.schemas.ts';
import { type HostResolver, hostAddresses } from './public-address.ts';
import { newWebhookSecret, PREVIOUS_SECRET_GRACE_MS } from './webhook-signature.ts';

// A vendor's webhook endpoints (decisions §14): their CRUD, secret rotation, delivery log and redelivery.
// Another vendor's endpoint or delivery is a 404, as if it did not exist.

export interface EndpointsDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: URLs may lead to loopback, private and other non-public addresses */
  allowPrivateUrls: boolean;
  resolveHost: HostResolver;
}

export interface EndpointInput {
  url?: string;
  event_types?: string[];
  description?: string;
  is_active?: boolean;
}

export function toEndpoint(row: repo.EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: JSON.parse(row.event_types) as string[],
    is_active: row.is_active === 1,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
export type Endpoint = ReturnType<typeof toEndpoint>;
export type EndpointWithSecret = Endpoint & { secret: string };

export function toDelivery(row: repo.DeliveryLogRow) {
  return {
    id: row.id,
    event_id: row.event_public_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at === null ? null : formatDateTime(row.next_attempt_at),
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
export type Delivery = ReturnType<typeof toDelivery>;

const endpointNotFound = () => notFound('Webhook endpoint not found.');

/**
 * The URL as given (trimmed), once it is http(s), carries no credentials, and its host is and resolves
 * to public addresses only (with allowPrivateUrls, any host). The webhook channel checks the host again at every
 * send: what a name resolves to may change after this check.
 */
async function checkedUrl(deps: EndpointsDeps, raw: string): Promise<string> {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidFields({ url: 'Enter a valid URL.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalidFields({ url: 'The URL must start with http:// or https://.' });
  if (url.username || url.password)
    throw invalidFields({ url: 'The URL must not contain a user name or password.' });
  // every address is allowed: no name needs resolving here (the channel resolves it at each send)
  if (deps.allowPrivateUrls) return text;
  const host = await hostAddresses(url.hostname, { allowPrivate: false, resolve: deps.resolveHost });
  if ('unresolved' in host)
    throw invalidFields({ url: `The host name ${url.hostname} could not be resolved.` });
  if ('refused' in host)
    throw invalidFields({
      url: `The URL's host must be a public address: ${host.refused}.`,
    });
  return text;
}

/** The event types as stored: distinct types of EVENT_TYPES, or ["*"] alone. */
function checkedEventTypes(types: string[]): string[] {
  if (types.length === 0) throw invalidFields({ event_types: 'List at least one event type, or "*".' });
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const type of types) {
    if (type === ALL_EVENTS) {
      if (types.length > 1) problems.push(`"${ALL_EVENTS}" must be the only entry.`);
    } else if (!(EVENT_TYPES as readonly string[]).includes(type)) {
      problems.push(`"${type}" is not an event type.`);
    }
    if (seen.has(type)) problems.push(`"${type}" is listed more than once.`);
    seen.add(type);
  }
  if (problems.length > 0) throw invalidFields({ event_types: [...new Set(problems)] });
  return types;
}

export async function listEndpoints(deps: EndpointsDeps, vendorId: number, page: Page) {
  // the count and the page on one snapshot
  const [count, rows] = await inReadSnapshot(deps.db, (db) =>
    Promise.all([repo.countVendorEndpoints(db, vendorId), repo.listVendorEndpoints(db, vendorId, page)]),
  );
  return { count, results: rows.map(toEndpoint) };
}

export async function getEndpoint(deps: EndpointsDeps, vendorId: number, id: number): Promise<Endpoint> {
  const row = await repo.findVendorEndpoint(deps.db, vendorId, id);
  if (!row) throw endpointNotFound();
  return toEndpoint(row);
}

export async function createEndpoint(
  deps: EndpointsDeps,
  vendorId: number,
  input: EndpointInput & { url: string; event_types: string[] },
): Promise<EndpointWithSecret> {
  const eventTypes = checkedEventTypes(input.event_types);
  const url = await checkedUrl(deps, input.url);
  const now = deps.clock.now().getTime();
  const row = await repo.insertEndpoint(deps.db, {
    vendor_id: vendorId,
    url,
    description: (input.description ?? '').trim(),
    event_types: JSON.stringify(eventTypes),
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    is_active: input.is_active === false ? 0 : 1,
    created_at: now,
    updated_at: now,
  });
  return { ...toEndpoint(row), secret: row.secret };
}

/** Changes the given fields; `is_active: true` re-enables an endpoint disabled by a 410 answer. */
export async function updateEndpoint(
  deps: EndpointsDeps,
  vendorId: number,
  id: number,
  input: EndpointInput,
): Promise<Endpoint> {
  const changes: { url?: string; event_types?: string; description?: string; is_active?: 0 | 1 } = {};
  if (input.event_types !== undefined)
    changes.event_types = JSON.stringify(checkedEventTypes(input.event_types));
  if (input.description !== undefined) changes.description = input.description.trim();
  if (input.is_active !== undefined) changes.is_active = input.is_active ? 1 : 0;
  if (input.url !== undefined) {
    // another vendor's endpoint is a 404, not a 400 about a URL it may not even hold
    if (!(await repo.findVendorEndpoint(deps.db, vendorId, id))) throw endpointNotFound();
    changes.url = await checkedUrl(deps, input.url);
  }
  const row = await repo.updateVendorEndpoint(deps.db, vendorId, id, {
    ...changes,
    updated_at: deps.clock.now().getTime(),
  });
  if (!row) throw endpointNotFound();
  return toEndpoint(row);
}

export async function deleteEndpoint(deps: EndpointsDeps, vendorId: number, id: number): Promise<void> {
  if (!(await repo.deleteVendorEndpoint(deps.db, vendorId, id))) throw endpointNotFound();
}

/**
 * A new signing secret. The one it replaces keeps signing beside it (a second signature) for
 * PREVIOUS_SECRET_GRACE_MS, so a receiver can switch keys without refusing the deliveries meanwhile.
 */
export async function rotateSecret(
  deps: EndpointsDeps,
  vendorId: number,
  id: number,
): Promise<EndpointWithSecret> {
  const now = deps.clock.now().getTime();
  const row = await repo.rotateVendorEndpointSecret(deps.db, vendorId, id, {
    secret: newWebhookSecret(),
    previousExpiresAt: now + PREVIOUS_SECRET_GRACE_MS,
    now,
  });
  if (!row) throw endpointNotFound();
  return { ...toEndpoint(row), secret: row.secret };
}

export async function listDeliveries(deps: EndpointsDeps, vendorId: number, endpointId: number, page: Page) {
  // the endpoint, the count and the page on one snapshot
  const [count, rows] = await inReadSnapshot(deps.db, async (db) => {
    if (!(await repo.findVendorEndpoint(db, vendorId, endpointId))) throw endpointNotFound();
    return Promise.all([
      repo.countEndpointDeliveries(db, endpointId),
      repo.listEndpointDeliveries(db, endpointId, page),
    ]);
  });
  return { count, results: rows.map(toDelivery) };
}

/**
 * Sends a delivery's event to its endpoint again: a new pending delivery, due now, so that the log keeps
 * every earlier try as it was. A disabled endpoint is sent nothing (409) until it is enabled again.
 */
export async function redeliver(
  deps: EndpointsDeps,
  vendorId: number,
  deliveryId: number,
): Promise<Delivery> {
  const original = await repo.findVendorDelivery(deps.db, vendorId, deliveryId);
  if (!original) throw notFound('Delivery not found.');
  if (original.endpoint_is_active !== 1)
    throw new AppError('invalid_state', 'The endpoint is disabled: enable it before redelivering.');
  const now = deps.clock.now().getTime();
  const row = await repo.insertDelivery(deps.db, {
    event_id: original.event_id,
    channel: 'webhook',
    endpoint_id: original.endpoint_id,
    recipient: null,
    recipient_role: null,
    secret: null,
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
  return toDelivery({ ...row, event_public_id: original.event_public_id, event_type: original.event_type });
}
