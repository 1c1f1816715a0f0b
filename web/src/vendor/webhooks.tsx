// The vendor's webhook endpoints (decisions §14) in the settings page: adding one, its signing secret shown
// once (after creating and after a rotation), enabling, disabling, deleting, and each endpoint's delivery
// log with redelivery.
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { SecretOnce } from '../components/secret-once.tsx';
import { dateTime } from '../format.ts';
import type { paths } from '../generated/api.d.ts';
import {
  Checkbox,
  ErrorMessage,
  Field,
  fieldErrors,
  Loading,
  Notice,
  onSubmitRun,
  TableScroll,
  useAction,
} from '../ui.tsx';
import { useLoad } from './data.ts';

type Endpoint = Schemas['WebhookEndpoint'];
type Delivery = Schemas['WebhookDelivery'];
type EventChoice = Exclude<
  paths['/api/v1/notifications/endpoints/']['post']['requestBody']['content']['application/json']['event_types'][number],
  '*'
>;

const ALL_EVENTS = '*';

/** The events an endpoint may receive, as the vendor reads them. */
const EVENT_NAMES: Record<EventChoice, string> = {
  'booking.requested': 'Booking requested',
  'booking.approved': 'Booking approved',
  'booking.declined': 'Booking declined',
  'booking.cancelled': 'Booking cancelled',
  'booking.expired': 'Booking expired',
  'booking.confirmed': 'Booking confirmed',
  'payment.succeeded': 'Payment succeeded',
  'payment.failed': 'Payment failed',
  'payment.refunded': 'Payment refunded',
};
const EVENT_CHOICES = Object.keys(EVENT_NAMES) as EventChoice[];

const eventsText = (types: string[]) =>
  types.includes(ALL_EVENTS)
    ? 'All events'
    : types.map((type) => EVENT_NAMES[type as EventChoice] ?? type).join(', ');

const DELIVERY_WORDS: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** The receiver's last answer: its HTTP status and why the attempt failed, or a dash before any attempt. */
function lastAnswer(delivery: Delivery): string {
  const parts: string[] = [];
  if (delivery.last_status_code !== null) parts.push(`HTTP ${delivery.last_status_code}`);
  // the error of a refused answer may be its status again
  if (delivery.last_error && delivery.last_error !== parts[0]) parts.push(delivery.last_error);
  return parts.join(': ') || '—';
}

const endpointsApi = {
  // a vendor has a handful of endpoints: the largest page holds them all
  list: () =>
    call(() => api.GET('/api/v1/notifications/endpoints/', { params: { query: { page_size: 100 } } })),
  update: (id: number, body: { is_active: boolean }) =>
    call(() => api.PATCH('/api/v1/notifications/endpoints/{id}/', { params: { path: { id } }, body })),
  remove: (id: number) =>
    call(() => api.DELETE('/api/v1/notifications/endpoints/{id}/', { params: { path: { id } } })),
  rotate: (id: number) =>
    call(() => api.POST('/api/v1/notifications/endpoints/{id}/rotate-secret/', { params: { path: { id } } })),
  deliveries: (id: number) =>
    call(() => api.GET('/api/v1/notifications/endpoints/{id}/deliveries/', { params: { path: { id } } })),
  redeliver: (id: number) =>
    call(() => api.POST('/api/v1/notifications/deliveries/{id}/redeliver/', { params: { path: { id } } })),
};

/** A new signing secret: shown this once, with a way to copy it. */
function SecretNotice({ url, secret, onHide }: { url: string; secret: string; onHide: () => void }) {
  return (
    <SecretOnce
      label={`Signing secret of ${url}`}
      value={secret}
      hint="Copy it now into your receiver: it is not shown again. It verifies the webhook-signature header of each delivery."
      copyLabel="Copy secret"
      hideLabel="Hide secret"
      onHide={onHide}
    />
  );
}

function AddEndpointForm({ onAdded }: { onAdded: (created: Schemas['WebhookEndpointWithSecret']) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [allEvents, setAllEvents] = useState(true);
  const [chosen, setChosen] = useState<EventChoice[]>([]);
  const add = useAction(async () => {
    const created = await call(() =>
      api.POST('/api/v1/notifications/endpoints/', {
        body: { url, description, event_types: allEvents ? [ALL_EVENTS] : chosen },
      }),
    );
    setUrl('');
    setDescription('');
    setAllEvents(true);
    setChosen([]);
    onAdded(created);
  });
  const errors = fieldErrors(add.error);
  const choose = (type: EventChoice) => (checked: boolean) =>
    setChosen((now) => (checked ? [...now, type] : now.filter((t) => t !== type)));
  return (
    <form
      class="stack narrow"
      onSubmit={onSubmitRun(add.run)}
      noValidate
      aria-labelledby="add-endpoint-title"
    >
      <h3 id="add-endpoint-title">Add an endpoint</h3>
      <ErrorMessage error={add.error} />
      <Field
        label="Endpoint URL"
        type="url"
        required
        placeholder="https://example.com/waterbook-webhooks"
        value={url}
        onValue={setUrl}
        error={errors.url}
      />
      <fieldset class="stack">
        <legend>Events</legend>
        <Checkbox
          label="All events"
          checked={allEvents}
          onChecked={setAllEvents}
          error={errors.event_types}
        />
        {!allEvents &&
          EVENT_CHOICES.map((type) => (
            <Checkbox
              key={type}
              label={EVENT_NAMES[type]}
              checked={chosen.includes(type)}
              onChecked={choose(type)}
            />
          ))}
      </fieldset>
      <Field
        label="Note"
        hint="Optional: what the endpoint is for, such as Booking desk."
        value={description}
        onValue={setDescription}
        error={errors.description}
      />
      <button type="submit" class="button primary" disabled={add.busy}>
        Add endpoint
      </button>
    </form>
  );
}

function DeliveryLog({ endpoint, timeZone }: { endpoint: Endpoint; timeZone: string }) {
  const log = useLoad(() => endpointsApi.deliveries(endpoint.id), [endpoint.id]);
  const [queued, setQueued] = useState(false);
  const redeliver = useAction(async (delivery: Delivery) => {
    setQueued(false);
    await endpointsApi.redeliver(delivery.id);
    await log.reload();
    setQueued(true);
  });
  if (!log.data)
    return log.error ? <ErrorMessage error={log.error} /> : <Loading what="Loading deliveries" />;
  return (
    <div class="stack">
      <ErrorMessage error={redeliver.error} />
      {queued && <Notice>Redelivery queued.</Notice>}
      {log.data.results.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <TableScroll label={`Deliveries to ${endpoint.url}`}>
          <table>
            <caption class="visually-hidden">Deliveries to {endpoint.url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {log.data.results.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{dateTime(delivery.created_at, timeZone)}</td>
                  <td>{EVENT_NAMES[delivery.event_type as EventChoice] ?? delivery.event_type}</td>
                  <td>{DELIVERY_WORDS[delivery.status]}</td>
                  <td>{delivery.attempts}</td>
                  <td>{lastAnswer(delivery)}</td>
                  <td>
                    <button
                      type="button"
                      class="button"
                      disabled={redeliver.busy}
                      onClick={() => redeliver.run(delivery)}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}

function EndpointCard({
  endpoint,
  timeZone,
  onChanged,
  onSecret,
}: {
  endpoint: Endpoint;
  timeZone: string;
  onChanged: () => Promise<void>;
  onSecret: (url: string, secret: string) => void;
}) {
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const act = useAction(async (action: () => Promise<unknown>) => {
    await action();
    await onChanged();
  });
  const toggle = () => act.run(() => endpointsApi.update(endpoint.id, { is_active: !endpoint.is_active }));
  const rotate = () =>
    act.run(async () => {
      const rotated = await endpointsApi.rotate(endpoint.id);
      onSecret(rotated.url, rotated.secret);
    });
  const remove = () => act.run(() => endpointsApi.remove(endpoint.id));
  return (
    <article class="card stack" aria-label={endpoint.url}>
      <h3>{endpoint.url}</h3>
      {endpoint.description && <p>{endpoint.description}</p>}
      <dl class="facts">
        <dt>Events</dt>
        <dd>{eventsText(endpoint.event_types)}</dd>
        <dt>State</dt>
        <dd>{endpoint.is_active ? 'Active' : 'Disabled: nothing is sent to it'}</dd>
      </dl>
      <ErrorMessage error={act.error} />
      <div class="row">
        <button type="button" class="button" disabled={act.busy} onClick={toggle}>
          {endpoint.is_active ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="button" disabled={act.busy} onClick={rotate}>
          Rotate secret
        </button>
        <button type="button" class="button" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </button>
        <button type="button" class="button danger" onClick={() => setConfirmingDelete(true)}>
          Delete
        </button>
      </div>
      {confirmingDelete && (
        <fieldset class="confirm">
          <legend>
            Delete this endpoint? Nothing more is sent to it, and its delivery log goes with it.
          </legend>
          <div class="row">
            <button type="button" class="button danger" disabled={act.busy} onClick={remove}>
              Yes, delete
            </button>
            <button type="button" class="button" onClick={() => setConfirmingDelete(false)}>
              Keep it
            </button>
          </div>
        </fieldset>
      )}
      {showLog && <DeliveryLog endpoint={endpoint} timeZone={timeZone} />}
    </article>
  );
}

/** The settings page's Webhooks section. */
export function WebhooksSection({ timeZone }: { timeZone: string }) {
  const endpoints = useLoad(endpointsApi.list, []);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const showSecret = (url: string, value: string) => setSecret({ url, secret: value });
  return (
    <section class="stack" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p>
        Your own systems hear of each booking and payment change: a signed POST (Standard Webhooks) to each
        endpoint, retried when it fails.
      </p>
      {secret && <SecretNotice url={secret.url} secret={secret.secret} onHide={() => setSecret(null)} />}
      <ErrorMessage error={endpoints.error} />
      {!endpoints.data ? (
        !endpoints.error && <Loading what="Loading endpoints" />
      ) : endpoints.data.results.length === 0 ? (
        <p>No endpoints yet.</p>
      ) : (
        endpoints.data.results.map((endpoint) => (
          <EndpointCard
            key={endpoint.id}
            endpoint={endpoint}
            timeZone={timeZone}
            onChanged={endpoints.reload}
            onSecret={showSecret}
          />
        ))
      )}
      <AddEndpointForm
        onAdded={(created) => {
          showSecret(created.url, created.secret);
          void endpoints.reload();
        }}
      />
    </section>
  );
}
