// The one form that creates and edits a listing of either kind, writing every writable field (decisions
// §4, §10, §12, §19's booking cutoff); a refused field shows the API's message beside it.
import { useState } from 'preact/hooks';
import { api, call } from '../api.ts';
import { Checkbox, ErrorMessage, Field, fieldErrors, Notice, Select, TextArea } from '../ui.tsx';
import {
  type Adventure,
  categories,
  type Equipment,
  integer,
  KIND_NAMES,
  type Kind,
  type Listing,
  useLoad,
} from './data.ts';
import { type RentalTermsDraft, RentalTermsFields, rentalTermsBody, rentalTermsOf } from './rental-terms.tsx';

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
  booking_cutoff_minutes: string;
  /** equipment: rates, duration limits, buffer (decisions §20) */
  rental: RentalTermsDraft;
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
    booking_cutoff_minutes: String(listing?.booking_cutoff_minutes ?? 0),
    rental: rentalTermsOf(equipment),
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
    booking_cutoff_minutes: integer(draft.booking_cutoff_minutes),
    is_active: draft.is_active,
  };
  if (kind === 'equipment') {
    const body = {
      ...common,
      location: draft.place,
      price_per_day: draft.price,
      quantity: integer(draft.quantity),
      ...rentalTermsBody(draft.rental),
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

export function ListingForm({
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
          <RentalTermsFields value={draft.rental} onValue={set('rental')} errors={errors} />
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
      <Field
        label="Booking closes (minutes before the start)"
        type="number"
        min={0}
        max={43200}
        step={1}
        value={draft.booking_cutoff_minutes}
        onValue={set('booking_cutoff_minutes')}
        error={errors.booking_cutoff_minutes}
        hint="Online requests stop this long before each start; 0 takes them until the start."
      />
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
