// The Channels page's list of channels (decisions §24, §26): `New channel` with a field `Name` and
// `Create`; the key shown once with `Copy`; per channel `Rotate key` and `Deactivate` (or `Reactivate`).
// Creating a channel and rotating its key are the owner's (decisions §25): a manager sees the list and
// deactivates, without those buttons. Resellers use the key on the OCTO API (docs/octo.md).
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { SecretOnce } from '../components/secret-once.tsx';
import { dateTime } from '../format.ts';
import { ErrorMessage, Field, fieldErrors, Loading, onSubmitRun, useAction } from '../ui.tsx';
import { useLoad } from './data.ts';
import { useMay } from './permissions.tsx';

type Channel = Schemas['Channel'];
type ShownKey = { name: string; key: string };

const KEY_HINT =
  'Give it to the reseller now: it is not shown again. They send it as "Authorization: Bearer <key>" to ' +
  'the OCTO API at /octo/v1/ of this site.';

function NewChannel({ onCreated }: { onCreated: (shown: ShownKey) => Promise<void> }) {
  const headingId = useId();
  const [name, setName] = useState('');
  const create = useAction(async () => {
    const made = await call(() => api.POST('/api/v1/channels/', { body: { name: name.trim() } }));
    setName('');
    await onCreated({ name: made.name, key: made.api_key });
  });
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>New channel</h2>
      <form class="stack listing-form" onSubmit={onSubmitRun(create.run)} noValidate>
        <ErrorMessage error={create.error} />
        <Field
          label="Name"
          required
          value={name}
          onValue={setName}
          error={fieldErrors(create.error).name}
          hint="The reseller or system that books through it, e.g. Harbour Hotel concierge."
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

function ChannelCard({
  channel,
  onChange,
  onKey,
}: {
  channel: Channel;
  onChange: () => Promise<void>;
  onKey: (shown: ShownKey) => void;
}) {
  const headingId = useId();
  const may = useMay();
  const setActive = useAction(async (active: boolean) => {
    await call(() =>
      api.PATCH('/api/v1/channels/{id}/', {
        params: { path: { id: channel.id } },
        body: { is_active: active },
      }),
    );
    await onChange();
  });
  const rotate = useAction(async () => {
    const rotated = await call(() =>
      api.POST('/api/v1/channels/{id}/rotate-key/', { params: { path: { id: channel.id } } }),
    );
    onKey({ name: rotated.name, key: rotated.api_key });
  });
  return (
    <section class="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{channel.name}</h3>
      <p>
        {channel.is_active ? 'Active' : 'Deactivated: its key is refused'} · created{' '}
        {dateTime(channel.created_at)}
      </p>
      <ErrorMessage error={setActive.error ?? rotate.error} />
      <div class="row">
        {may('POST /api/v1/channels/{id}/rotate-key/') && (
          <button type="button" class="button" onClick={() => rotate.run()} disabled={rotate.busy}>
            Rotate key
          </button>
        )}
        <button
          type="button"
          class="button"
          onClick={() => setActive.run(!channel.is_active)}
          disabled={setActive.busy}
        >
          {channel.is_active ? 'Deactivate' : 'Reactivate'}
        </button>
      </div>
    </section>
  );
}

/** The channels section of the Channels page. */
export function ChannelList() {
  const may = useMay();
  const [shown, setShown] = useState<ShownKey | null>(null);
  const channels = useLoad(
    () => call(() => api.GET('/api/v1/channels/', { params: { query: { page_size: 100 } } })),
    [],
  );
  const showKey = (key: ShownKey) => setShown(key);
  return (
    <>
      {may('POST /api/v1/channels/') && (
        <NewChannel
          onCreated={async (key) => {
            showKey(key);
            await channels.reload();
          }}
        />
      )}
      {shown && (
        <SecretOnce
          label={`Key of ${shown.name}`}
          value={shown.key}
          hint={KEY_HINT}
          onHide={() => setShown(null)}
        />
      )}
      <h2>Your channels</h2>
      <ErrorMessage error={channels.error} />
      {!channels.data && !channels.error && <Loading />}
      {channels.data?.results.length === 0 && <p>No channels yet.</p>}
      <div class="stack">
        {channels.data?.results.map((channel) => (
          <ChannelCard key={channel.id} channel={channel} onChange={channels.reload} onKey={showKey} />
        ))}
      </div>
    </>
  );
}
