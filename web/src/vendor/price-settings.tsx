// A listing's price settings (decisions §21, §26): price categories (adventures: Adult, Child, ...) and
// extras (both kinds: a wetsuit per day, a GoPro per booking). The page holds what the vendor types; the
// API validates and names the member it refuses (`extras.0.max_quantity`), shown at that field.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { ErrorMessage, Field, fieldErrors, Notice, onSubmitRun, Select, useAction } from '../ui.tsx';
import { integer, type Kind, type Listing, useVendorResources } from './data.ts';

type Category = Schemas['PriceCategory'];
type Extra = Schemas['Extra'];
type Resource = Schemas['Resource'];

/** A row as its fields hold it (text), with a key that stays with it when an earlier row is removed. */
interface Row {
  key: number;
  code: string;
  label: string;
  price: string;
  per: Extra['per'];
  max_quantity: string;
  /** '' when the extra takes no resource */
  resource_id: string;
}

let nextKey = 1;
const rowOf = (item?: Partial<Extra>): Row => ({
  key: nextKey++,
  code: item?.code ?? '',
  label: item?.label ?? '',
  price: item?.price ?? '',
  per: item?.per ?? 'booking',
  max_quantity: String(item?.max_quantity ?? 10),
  resource_id: item?.resource_id ? String(item.resource_id) : '',
});
const categoryOf = (row: Row): Category => ({ code: row.code.trim(), label: row.label, price: row.price });
const extraOf = (row: Row) => ({
  ...categoryOf(row),
  per: row.per,
  max_quantity: integer(row.max_quantity),
  resource_id: row.resource_id === '' ? null : Number(row.resource_id),
});

type Which = 'price_categories' | 'extras';
const NOUN: Record<Which, string> = { price_categories: 'Category', extras: 'Extra' };

function RowFields({
  which,
  index,
  row,
  errors,
  resources,
  onChange,
  onRemove,
}: {
  which: Which;
  index: number;
  row: Row;
  errors: Record<string, string[]>;
  resources: readonly Resource[];
  onChange: (row: Row) => void;
  onRemove: () => void;
}) {
  const legendId = useId();
  const name = `${NOUN[which]} ${index + 1}`;
  const at = (member: string) => errors[`${which}.${index}.${member}`];
  const set =
    <K extends keyof Row>(key: K) =>
    (value: Row[K]) =>
      onChange({ ...row, [key]: value });
  return (
    <fieldset class="stack schedule-rule" aria-labelledby={legendId}>
      <legend id={legendId}>{name}</legend>
      <div class="row">
        <Field
          label="Code"
          value={row.code}
          onValue={set('code')}
          error={at('code')}
          hint="a-z, 0-9, _ and -: what requests name it by"
        />
        <Field label="Label" value={row.label} onValue={set('label')} error={at('label')} maxLength={100} />
        <Field
          label="Price"
          type="number"
          min={0}
          step="0.01"
          value={row.price}
          onValue={set('price')}
          error={at('price')}
        />
      </div>
      {which === 'extras' && (
        <div class="row">
          <Select
            label="Charged"
            value={row.per}
            onValue={(v) => set('per')(v as Extra['per'])}
            options={[
              ['booking', 'Per booking'],
              ['day', 'Per day'],
            ]}
            error={at('per')}
          />
          <Field
            label="Max quantity"
            type="number"
            min={1}
            max={1000}
            step={1}
            value={row.max_quantity}
            onValue={set('max_quantity')}
            error={at('max_quantity')}
          />
          <Select
            label="Takes from resource"
            value={row.resource_id}
            onValue={set('resource_id')}
            options={[['', 'None'], ...resources.map((r): [string, string] => [String(r.id), r.name])]}
            error={at('resource_id')}
          />
        </div>
      )}
      <button type="button" class="button" onClick={onRemove} aria-label={`Remove ${name.toLowerCase()}`}>
        Remove
      </button>
    </fieldset>
  );
}

function RowList({
  which,
  rows,
  errors,
  resources = [],
  setRows,
}: {
  which: Which;
  rows: Row[];
  errors: Record<string, string[]>;
  resources?: readonly Resource[];
  setRows: (change: (rows: Row[]) => Row[]) => void;
}) {
  const change = (at: number, row: Row | null) =>
    setRows((all) => all.flatMap((r, i) => (i !== at ? [r] : row ? [row] : [])));
  return (
    <>
      {errors[which] && <p class="field-error">{errors[which].join(' ')}</p>}
      {rows.map((row, index) => (
        <RowFields
          key={row.key}
          which={which}
          index={index}
          row={row}
          errors={errors}
          resources={resources}
          onChange={(r) => change(index, r)}
          onRemove={() => change(index, null)}
        />
      ))}
      <button type="button" class="button" onClick={() => setRows((all) => [...all, rowOf()])}>
        {which === 'extras' ? 'Add extra' : 'Add category'}
      </button>
    </>
  );
}

/** The prices section of a listing's editor: categories (adventures), extras, and `Save prices`. */
export function PriceSettingsEditor({
  kind,
  listing,
  onSaved,
}: {
  kind: Kind;
  listing: Listing;
  onSaved: () => Promise<void>;
}) {
  const headingId = useId();
  const adventure = 'price_categories' in listing;
  const [categories, setCategories] = useState(() =>
    adventure ? listing.price_categories.map((c) => rowOf(c)) : [],
  );
  const [extras, setExtras] = useState(() => listing.extras.map((e) => rowOf(e)));
  const [saved, setSaved] = useState(false);
  const vendorResources = useVendorResources();
  const save = useAction(async () => {
    setSaved(false);
    const params = { path: { id: listing.id } };
    const extrasBody = extras.map(extraOf);
    await (kind === 'equipment'
      ? call(() =>
          api.PATCH('/api/v1/equipment/vendor/items/{id}/', { params, body: { extras: extrasBody } }),
        )
      : call(() =>
          api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/', {
            params,
            body: { extras: extrasBody, price_categories: categories.map(categoryOf) },
          }),
        ));
    setSaved(true);
    await onSaved();
  });
  const errors = fieldErrors(save.error);
  const edit = (set: typeof setExtras) => (change: (rows: Row[]) => Row[]) => {
    setSaved(false);
    set(change);
  };
  return (
    <section class="schedule" aria-labelledby={headingId}>
      <h2 id={headingId}>Prices</h2>
      <form class="stack listing-form" onSubmit={onSubmitRun(save.run)} noValidate>
        <ErrorMessage error={save.error} />
        {saved && <Notice>Prices saved.</Notice>}
        {adventure && (
          <>
            <h3>Price categories</h3>
            <p class="hint">
              With categories, customers choose how many of each (Adult, Child) and each pays its price;
              without, everyone pays the price per person.
            </p>
            <RowList
              which="price_categories"
              rows={categories}
              errors={errors}
              setRows={edit(setCategories)}
            />
          </>
        )}
        <h3>Extras</h3>
        <p class="hint">
          Things customers may add to a booking, charged per booking or per rental day. An extra that takes
          from a resource (wetsuits) takes one of it for each one chosen.
        </p>
        <RowList
          which="extras"
          rows={extras}
          errors={errors}
          resources={vendorResources.data?.results ?? []}
          setRows={edit(setExtras)}
        />
        <div class="row">
          <button type="submit" class="button primary" disabled={save.busy}>
            Save prices
          </button>
        </div>
      </form>
    </section>
  );
}
