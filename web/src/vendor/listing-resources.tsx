// A listing's shared resources (decisions §22): which of the vendor's resources a booking of it uses, how
// (per booking, per participant, per unit, once per departure) and how many. The API checks them and names
// the member it refuses (`resources.0.amount`), shown at that field.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { ErrorMessage, Field, fieldErrors, Notice, onSubmitRun, Select, useAction } from '../ui.tsx';
import { integer, type Kind, type Listing, useVendorResources } from './data.ts';

type Use = Schemas['ResourceUse'];

const PER_WORDS: Record<Kind, [Use['per'], string][]> = {
  adventure: [
    ['departure', 'Once per departure'],
    ['participant', 'Per participant'],
    ['booking', 'Per booking'],
  ],
  equipment: [
    ['unit', 'Per unit rented'],
    ['booking', 'Per booking'],
  ],
};

interface Row {
  key: number;
  resource_id: string;
  per: Use['per'];
  amount: string;
}
let nextKey = 1;
const rowOf = (kind: Kind, use?: Use): Row => ({
  key: nextKey++,
  resource_id: use ? String(use.resource_id) : '',
  per: use?.per ?? PER_WORDS[kind][0][0],
  amount: String(use?.amount ?? 1),
});

/** The resources section of a listing's editor, with `Save resources`. */
export function ResourceUsesEditor({
  kind,
  listing,
  onSaved,
}: {
  kind: Kind;
  listing: Listing;
  onSaved: () => Promise<void>;
}) {
  const headingId = useId();
  const resources = useVendorResources();
  const [rows, setRows] = useState(() => listing.resources.map((u) => rowOf(kind, u)));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = {
      resources: rows.map((r) => ({
        resource_id: integer(r.resource_id),
        per: r.per,
        amount: integer(r.amount),
      })),
    };
    const params = { path: { id: listing.id } };
    await (kind === 'equipment'
      ? call(() => api.PATCH('/api/v1/equipment/vendor/items/{id}/', { params, body }))
      : call(() => api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/', { params, body })));
    setSaved(true);
    await onSaved();
  });
  const errors = fieldErrors(save.error);
  const change = (at: number, row: Row | null) => {
    setSaved(false);
    setRows((all) => all.flatMap((r, i) => (i !== at ? [r] : row ? [row] : [])));
  };
  const options: [string, string][] = [
    ['', 'Choose a resource'],
    ...(resources.data?.results ?? []).map((r): [string, string] => [
      String(r.id),
      `${r.name} (${r.quantity})`,
    ]),
  ];
  return (
    <section class="schedule" aria-labelledby={headingId}>
      <h2 id={headingId}>Resources</h2>
      <form class="stack listing-form" onSubmit={onSubmitRun(save.run)} noValidate>
        <ErrorMessage error={save.error} />
        <ErrorMessage error={resources.error} />
        {saved && <Notice>Resources saved.</Notice>}
        <p class="hint">
          What a booking of this listing uses of your shared resources (
          <a href="/vendor/resources">Resources</a>
          ): no booking is taken when a resource would run short.
        </p>
        {errors.resources && <p class="field-error">{errors.resources.join(' ')}</p>}
        {rows.map((row, index) => {
          const at = (member: string) => errors[`resources.${index}.${member}`];
          const name = `Resource use ${index + 1}`;
          return (
            <fieldset class="stack schedule-rule" key={row.key}>
              <legend>{name}</legend>
              <div class="row">
                <Select
                  label="Resource"
                  value={row.resource_id}
                  onValue={(v) => change(index, { ...row, resource_id: v })}
                  options={options}
                  error={at('resource_id')}
                />
                <Select
                  label="Used"
                  value={row.per}
                  onValue={(v) => change(index, { ...row, per: v as Use['per'] })}
                  options={PER_WORDS[kind]}
                  error={at('per')}
                />
                <Field
                  label="Amount"
                  type="number"
                  min={1}
                  max={1000}
                  step={1}
                  value={row.amount}
                  onValue={(v) => change(index, { ...row, amount: v })}
                  error={at('amount')}
                />
              </div>
              <button
                type="button"
                class="button"
                onClick={() => change(index, null)}
                aria-label={`Remove ${name.toLowerCase()}`}
              >
                Remove
              </button>
            </fieldset>
          );
        })}
        <div class="row">
          <button type="button" class="button" onClick={() => setRows((all) => [...all, rowOf(kind)])}>
            Add resource
          </button>
          <button type="submit" class="button primary" disabled={save.busy}>
            Save resources
          </button>
        </div>
      </form>
    </section>
  );
}
