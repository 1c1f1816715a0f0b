// A vendor's shared resources (decisions §22, §26): `New resource` (Name, Quantity, Create), and per
// resource its quantity (editable), Delete, and its use over the coming days from the usage endpoint: bars
// drawn from the API's segments with a table beside them saying the same in words.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { dateTime } from '../format.ts';
import { useSession } from '../session.tsx';
import {
  ErrorMessage,
  Field,
  fieldErrors,
  Loading,
  Notice,
  onSubmitRun,
  Page,
  TableScroll,
  useAction,
} from '../ui.tsx';
import { integer, useLoad } from './data.ts';

type Resource = Schemas['Resource'];

/** How far the usage view looks ahead. */
const USAGE_DAYS = 7;

function NewResource({ onCreated }: { onCreated: () => Promise<void> }) {
  const headingId = useId();
  const [name, setName] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [created, setCreated] = useState('');
  const create = useAction(async () => {
    setCreated('');
    const made = await call(() =>
      api.POST('/api/v1/booking/vendor/resources/', {
        body: { name: name.trim(), quantity: integer(quantity) },
      }),
    );
    setCreated(made.name);
    setName('');
    setQuantity('1');
    await onCreated();
  });
  const errors = fieldErrors(create.error);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>New resource</h2>
      <form class="stack listing-form" onSubmit={onSubmitRun(create.run)} noValidate>
        <ErrorMessage error={create.error} />
        {created && <Notice>Resource {created} created.</Notice>}
        <Field
          label="Name"
          required
          value={name}
          onValue={setName}
          error={errors.name}
          hint="What customers know it by, such as RIB boat or kayak."
        />
        <Field
          label="Quantity"
          type="number"
          required
          min={1}
          max={10000}
          step={1}
          value={quantity}
          onValue={setQuantity}
          error={errors.quantity}
        />
        <div class="row">
          <button type="submit" class="button primary" disabled={create.busy}>
            Create
          </button>
        </div>
      </form>
    </section>
  );
}

/** The use over the coming days: a bar per busy period and the same periods as a table. */
function Usage({ resource }: { resource: Resource }) {
  const { user } = useSession();
  const zone = user?.vendor_profile?.time_zone;
  const [from] = useState(() => new Date());
  const usage = useLoad(
    () =>
      call(() =>
        api.GET('/api/v1/booking/vendor/resources/{id}/usage/', {
          params: {
            path: { id: resource.id },
            query: {
              from: from.toISOString(),
              to: new Date(from.getTime() + USAGE_DAYS * 86_400_000).toISOString(),
            },
          },
        }),
      ),
    [resource.id, resource.quantity],
  );
  if (usage.error) return <ErrorMessage error={usage.error} />;
  if (!usage.data) return <Loading what="Loading usage" />;
  const busy = usage.data.segments.filter((s) => s.used > 0);
  if (busy.length === 0) return <p>Not in use in the next {USAGE_DAYS} days.</p>;
  const quantity = usage.data.quantity;
  return (
    <div class="usage">
      <div class="usage-bars" aria-hidden="true">
        {busy.map((s) => (
          <div
            class="usage-bar"
            key={s.starts_at}
            title={`${dateTime(s.starts_at, zone)}: ${s.used} of ${quantity}`}
          >
            <span style={{ width: `${Math.min(100, (s.used / quantity) * 100)}%` }} />
          </div>
        ))}
      </div>
      <TableScroll label={`${resource.name}: use in the next ${USAGE_DAYS} days`}>
        <table>
          <caption>
            {resource.name} in use, next {USAGE_DAYS} days
          </caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Until</th>
              <th scope="col">In use</th>
            </tr>
          </thead>
          <tbody>
            {busy.map((s) => (
              <tr key={s.starts_at}>
                <td>{dateTime(s.starts_at, zone)}</td>
                <td>{dateTime(s.ends_at, zone)}</td>
                <td>
                  {s.used} of {quantity}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}

function ResourceCard({ resource, onChange }: { resource: Resource; onChange: () => Promise<void> }) {
  const headingId = useId();
  const [quantity, setQuantity] = useState(String(resource.quantity));
  const save = useAction(async () => {
    await call(() =>
      api.PATCH('/api/v1/booking/vendor/resources/{id}/', {
        params: { path: { id: resource.id } },
        body: { quantity: integer(quantity) },
      }),
    );
    await onChange();
  });
  const remove = useAction(async () => {
    await call(() =>
      api.DELETE('/api/v1/booking/vendor/resources/{id}/', { params: { path: { id: resource.id } } }),
    );
    await onChange();
  });
  const errors = fieldErrors(save.error);
  return (
    <section class="card stack" aria-labelledby={headingId}>
      <h3 id={headingId}>{resource.name}</h3>
      <form class="row" onSubmit={onSubmitRun(save.run)} noValidate>
        <Field
          label={`Quantity of ${resource.name}`}
          type="number"
          min={1}
          max={10000}
          step={1}
          value={quantity}
          onValue={setQuantity}
          error={errors.quantity}
        />
        <button type="submit" class="button" disabled={save.busy}>
          Save quantity
        </button>
        <button type="button" class="button" onClick={() => remove.run()} disabled={remove.busy}>
          Delete
        </button>
      </form>
      <ErrorMessage error={save.error} />
      <ErrorMessage error={remove.error} />
      <Usage resource={resource} />
    </section>
  );
}

export function ResourcesPage() {
  const resources = useLoad(
    () => call(() => api.GET('/api/v1/booking/vendor/resources/', { params: { query: { page_size: 100 } } })),
    [],
  );
  return (
    <Page title="Resources">
      <p>
        A resource is something several listings share, such as a boat or a set of kayaks: no booking can take
        more of it than you have.
      </p>
      <NewResource onCreated={resources.reload} />
      <h2>Your resources</h2>
      <ErrorMessage error={resources.error} />
      {!resources.data && !resources.error && <Loading />}
      {resources.data?.results.length === 0 && <p>No resources yet.</p>}
      <div class="stack">
        {resources.data?.results.map((r) => (
          <ResourceCard key={`${r.id}-${r.updated_at}`} resource={r} onChange={resources.reload} />
        ))}
      </div>
    </Page>
  );
}
