// The vendor's listings of both kinds: a list with archive, and one form for create and edit that writes
// every writable field (decisions §4, §10, §12), then the listing's photos and availability slots.
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, call } from '../api.ts';
import { money } from '../format.ts';
import {
  Checkbox,
  ErrorMessage,
  Field,
  fieldErrors,
  Loading,
  Notice,
  Page,
  Select,
  TableScroll,
  TextArea,
} from '../ui.tsx';
import {
  type Adventure,
  categories,
  type Equipment,
  integer,
  isKind,
  KIND_NAMES,
  type Kind,
  type Listing,
  listingsApi,
  publicPath,
  useLoad,
} from './data.ts';
import { Photos } from './photos.tsx';
import { SlotCalendar } from './slots.tsx';

interface Row {
  kind: Kind;
  listing: Listing;
}

const price = (row: Row) =>
  row.kind === 'equipment'
    ? `${money((row.listing as Equipment).price_per_day, row.listing.currency)} a day`
    : `${money((row.listing as Adventure).price_per_person, row.listing.currency)} a person`;

function ArchiveButton({ row, onDone }: { row: Row; onDone: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const archive = async () => {
    try {
      await listingsApi.archive(row.kind, row.listing.id);
      await onDone();
    } catch (e) {
      setError(e);
    }
  };
  if (!confirming)
    return (
      <button
        type="button"
        class="button danger"
        onClick={() => setConfirming(true)}
        aria-label={`Archive ${row.listing.title}`}
      >
        Archive
      </button>
    );
  return (
    <fieldset class="confirm">
      <legend>Archive {row.listing.title}? It leaves your storefront and search; its bookings stay.</legend>
      <ErrorMessage error={error} />
      <div class="row">
        <button type="button" class="button danger" onClick={archive}>
          Yes, archive
        </button>
        <button type="button" class="button" onClick={() => setConfirming(false)}>
          Keep it
        </button>
      </div>
    </fieldset>
  );
}

export function ListingsPage() {
  const listings = useLoad(async () => {
    const [equipment, adventures] = await Promise.all([
      listingsApi.list.equipment(),
      listingsApi.list.adventure(),
    ]);
    return [
      ...equipment.results.map((listing): Row => ({ kind: 'equipment', listing })),
      ...adventures.results.map((listing): Row => ({ kind: 'adventure', listing })),
    ];
  }, []);
  return (
    <Page title="Listings">
      <div class="row">
        <a class="button primary" href="/vendor/listings/new/equipment">
          New equipment
        </a>
        <a class="button primary" href="/vendor/listings/new/adventure">
          New adventure
        </a>
      </div>
      <ErrorMessage error={listings.error} />
      {!listings.data ? (
        !listings.error && <Loading />
      ) : listings.data.length === 0 ? (
        <Notice>No listings yet: create your first one.</Notice>
      ) : (
        <TableScroll label="Your listings">
          <table>
            <caption class="visually-hidden">Your listings</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Kind</th>
                <th scope="col">Price</th>
                <th scope="col">Shown</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {listings.data.map((row) => (
                <tr key={`${row.kind}-${row.listing.id}`}>
                  <th scope="row">
                    <a href={`/vendor/listings/${row.kind}/${row.listing.id}`}>{row.listing.title}</a>
                  </th>
                  <td>{KIND_NAMES[row.kind]}</td>
                  <td>{price(row)}</td>
                  <td>
                    {row.listing.is_active ? (
                      <a href={publicPath(row.kind, row.listing.public_id)}>Public page</a>
                    ) : (
                      'Hidden'
                    )}
                  </td>
                  <td>
                    <ArchiveButton row={row} onDone={listings.reload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Page>
  );
}

/** The form's fields, as the inputs hold them (text). */
interface Draft {
  public_id: string;
  title: string;
  description: string;
  category_id: string;
  place: string;
  price: string;
  quantity: string;
  capacity: string;
  duration_minutes: string;
  booking_mode: 'private' | 'shared';
  free_cancellation_hours: string;
  late_refund_percent: string;
  is_active: boolean;
}

function draftOf(kind: Kind, listing?: Listing): Draft {
  const equipment = kind === 'equipment' ? (listing as Equipment | undefined) : undefined;
  const adventure = kind === 'adventure' ? (listing as Adventure | undefined) : undefined;
  return {
    public_id: listing?.public_id ?? '',
    title: listing?.title ?? '',
    description: listing?.description ?? '',
    category_id: listing ? String(listing.category_id) : '',
    place: equipment?.location ?? adventure?.meeting_point ?? '',
    price: equipment?.price_per_day ?? adventure?.price_per_person ?? '',
    quantity: String(equipment?.quantity ?? 1),
    capacity: String(adventure?.capacity ?? 1),
    duration_minutes: String(adventure?.duration_minutes ?? 60),
    booking_mode: adventure?.booking_mode ?? 'private',
    free_cancellation_hours: String(listing?.cancellation_policy.free_cancellation_hours ?? 24),
    late_refund_percent: String(listing?.cancellation_policy.late_refund_percent ?? 0),
    is_active: listing?.is_active ?? true,
  };
}

function save(kind: Kind, draft: Draft, id?: number): Promise<Listing> {
  const common = {
    public_id: draft.public_id.trim(),
    title: draft.title,
    description: draft.description,
    category_id: integer(draft.category_id),
    cancellation_policy: {
      free_cancellation_hours: integer(draft.free_cancellation_hours),
      late_refund_percent: integer(draft.late_refund_percent),
    },
    is_active: draft.is_active,
  };
  if (kind === 'equipment') {
    const body = {
      ...common,
      location: draft.place,
      price_per_day: draft.price,
      quantity: integer(draft.quantity),
    };
    return id === undefined
      ? call(() => api.POST('/api/v1/equipment/vendor/items/', { body }))
      : call(() => api.PATCH('/api/v1/equipment/vendor/items/{id}/', { params: { path: { id } }, body }));
  }
  const body = {
    ...common,
    meeting_point: draft.place,
    price_per_person: draft.price,
    capacity: integer(draft.capacity),
    duration_minutes: integer(draft.duration_minutes),
    booking_mode: draft.booking_mode,
  };
  return id === undefined
    ? call(() => api.POST('/api/v1/adventrues/vendor/offerings/', { body }))
    : call(() => api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/', { params: { path: { id } }, body }));
}

function ListingForm({
  kind,
  listing,
  onSaved,
}: {
  kind: Kind;
  listing?: Listing;
  onSaved: (saved: Listing) => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(kind, listing));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const categoryList = useLoad(categories, []);
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) => {
      setSaved(false);
      setDraft((d) => ({ ...d, [key]: value }));
    };
  const errors = fieldErrors(error);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await save(kind, draft, listing?.id);
      setSaved(true);
      onSaved(result);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const categoryOptions = [
    ['', 'Choose a category'] as const,
    ...(categoryList.data ?? []).map((c) => [String(c.id), c.name] as const),
  ];
  return (
    <form class="stack listing-form" onSubmit={submit} noValidate>
      <ErrorMessage error={error} />
      {saved && <Notice>Saved.</Notice>}
      <Field
        label="Title"
        required
        value={draft.title}
        onValue={set('title')}
        error={errors.title}
        maxLength={200}
      />
      <Field
        label="Public ID"
        required
        value={draft.public_id}
        onValue={set('public_id')}
        error={errors.public_id}
        hint="Letters, digits, - and _: the end of the listing's web address."
      />
      <TextArea
        label="Description"
        value={draft.description}
        onValue={set('description')}
        error={errors.description}
      />
      <Select
        label="Category"
        required
        value={draft.category_id}
        onValue={set('category_id')}
        options={categoryOptions}
        error={errors.category_id}
      />
      {kind === 'equipment' ? (
        <>
          <Field label="Location" value={draft.place} onValue={set('place')} error={errors.location} />
          <Field
            label="Price per day"
            type="number"
            min={0}
            step="0.01"
            required
            value={draft.price}
            onValue={set('price')}
            error={errors.price_per_day}
          />
          <Field
            label="Units"
            type="number"
            min={1}
            step={1}
            required
            value={draft.quantity}
            onValue={set('quantity')}
            error={errors.quantity}
            hint="Identical units customers can book at the same time."
          />
        </>
      ) : (
        <>
          <Field
            label="Meeting point"
            value={draft.place}
            onValue={set('place')}
            error={errors.meeting_point}
          />
          <Field
            label="Price per person"
            type="number"
            min={0}
            step="0.01"
            required
            value={draft.price}
            onValue={set('price')}
            error={errors.price_per_person}
          />
          <Field
            label="Duration (minutes)"
            type="number"
            min={1}
            step={1}
            required
            value={draft.duration_minutes}
            onValue={set('duration_minutes')}
            error={errors.duration_minutes}
          />
          <Field
            label="Capacity (people)"
            type="number"
            min={1}
            step={1}
            required
            value={draft.capacity}
            onValue={set('capacity')}
            error={errors.capacity}
          />
          <Select
            label="Booking mode"
            value={draft.booking_mode}
            onValue={(v) => set('booking_mode')(v as Draft['booking_mode'])}
            options={[
              ['private', 'Private: one group at a time'],
              ['shared', 'Shared: seats sold up to the capacity'],
            ]}
            error={errors.booking_mode}
          />
        </>
      )}
      <fieldset class="stack">
        <legend>Cancellation policy</legend>
        <Field
          label="Free cancellation up to (hours before the start)"
          type="number"
          min={0}
          step={1}
          value={draft.free_cancellation_hours}
          onValue={set('free_cancellation_hours')}
          error={errors['cancellation_policy.free_cancellation_hours']}
        />
        <Field
          label="Refund for a later cancellation (percent)"
          type="number"
          min={0}
          max={100}
          step={1}
          value={draft.late_refund_percent}
          onValue={set('late_refund_percent')}
          error={errors['cancellation_policy.late_refund_percent']}
        />
      </fieldset>
      <Checkbox
        label="Shown to customers"
        checked={draft.is_active}
        onChecked={set('is_active')}
        error={errors.is_active}
      />
      <div class="row">
        <button type="submit" class="button primary" disabled={busy}>
          {listing ? 'Save changes' : `Create ${KIND_NAMES[kind].toLowerCase()}`}
        </button>
        <a class="button" href="/vendor/listings">
          Back to listings
        </a>
      </div>
    </form>
  );
}

export function NewListingPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const kind = params.kind;
  if (!isKind(kind))
    return (
      <Page title="Unknown kind of listing">
        <a href="/vendor/listings">Back to listings</a>
      </Page>
    );
  return (
    <Page title={`New ${KIND_NAMES[kind].toLowerCase()}`}>
      <ListingForm kind={kind} onSaved={(saved) => route(`/vendor/listings/${kind}/${saved.id}`)} />
    </Page>
  );
}

export function ListingEditPage() {
  const { params } = useRoute();
  const kind = isKind(params.kind) ? params.kind : null;
  const id = Number(params.id);
  const listing = useLoad<Listing | null>(
    () =>
      kind === 'equipment'
        ? listingsApi.getEquipment(id)
        : kind === 'adventure'
          ? listingsApi.getAdventure(id)
          : Promise.resolve(null),
    [kind, id],
  );
  if (!kind || listing.data === null)
    return (
      <Page title="Listing not found">
        <a href="/vendor/listings">Back to listings</a>
      </Page>
    );
  if (!listing.data)
    return (
      <Page title="Listing">
        <ErrorMessage error={listing.error} />
        {!listing.error && <Loading />}
      </Page>
    );
  const current = listing.data;
  return (
    <Page title={current.title}>
      <p>
        {KIND_NAMES[kind]} ·{' '}
        {current.is_active ? (
          <a href={publicPath(kind, current.public_id)}>Public page</a>
        ) : (
          'Hidden from customers'
        )}
      </p>
      <h2>Details</h2>
      <ListingForm kind={kind} listing={current} onSaved={() => listing.reload()} />
      <Photos kind={kind} listingId={current.id} photos={current.photos} onChange={listing.reload} />
      <SlotCalendar kind={kind} listingId={current.id} />
    </Page>
  );
}
