import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { dateTime, fromLocalInput, money, plural, toLocalInput } from '../format.ts';
import { ErrorMessage, Field, fieldErrors, Select } from '../ui.tsx';
import {
  type Departure,
  estimateTotal,
  isEquipment,
  type Listing,
  moneyOfCents,
  unitPrice,
} from './listing.ts';

type Slot = Schemas['Slot'];
export type Booking = Schemas['Booking'];

const DAY_MS = 86_400_000;

/** Tomorrow at 09:00 in the browser's time zone: a start the form can offer before anyone types. */
function tomorrowMorning(): number {
  const d = new Date(Date.now() + DAY_MS);
  d.setHours(9, 0, 0, 0);
  return d.getTime();
}

/**
 * The booking request of one listing, with the total it will cost as the customer types (the API's own
 * rule, estimateTotal); the booking carries the page's marketing click (decisions §18). A scheduled
 * offering's request is for the `departure` chosen beside the form: it has no start field of its own.
 */
export function BookingForm({
  listing,
  slots,
  departure,
  clickId,
  onBooked,
}: {
  listing: Listing;
  slots: Slot[];
  departure?: Departure;
  clickId: number | null;
  onBooked: (booking: Booking) => void;
}) {
  const equipment = isEquipment(listing);
  // an unscheduled adventure with openings is booked from one of them
  const openings = equipment
    ? []
    : slots.filter((s) => s.is_available && Date.parse(s.starts_at) > Date.now());
  const start = tomorrowMorning();
  const [startsAt, setStartsAt] = useState(toLocalInput(start));
  const [endsAt, setEndsAt] = useState(toLocalInput(start + DAY_MS));
  const [opening, setOpening] = useState(openings[0]?.starts_at ?? '');
  const [count, setCount] = useState('1');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const startIso = () =>
    departure ? departure.starts_at : openings.length > 0 ? opening : fromLocalInput(startsAt);
  const units = Math.max(1, Math.floor(Number(count)) || 1);
  const window = { startsAt: Date.parse(startIso()), endsAt: Date.parse(fromLocalInput(endsAt)) };
  const valid = Number.isFinite(window.startsAt) && (!equipment || window.endsAt > window.startsAt);
  const estimate = valid ? estimateTotal(listing, window, units) : null;
  const errors = fieldErrors(error);
  const limit = isEquipment(listing) ? listing.quantity : (departure?.remaining ?? listing.capacity);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const booking = await call(() =>
        api.POST('/api/v1/booking/bookings/request/', {
          body: {
            ...(isEquipment(listing)
              ? { equipment_item_id: listing.id, ends_at: fromLocalInput(endsAt), quantity: units }
              : { adventure_offering_id: listing.id, participants_count: units }),
            starts_at: startIso(),
            customer_notes: notes,
            marketing_click_id: clickId,
          },
        }),
      );
      onBooked(booking);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="stack narrow" onSubmit={submit} aria-label="Book">
      <ErrorMessage error={error} />
      {departure ? (
        errors.starts_at && <p class="field-error">{errors.starts_at.join(' ')}</p>
      ) : openings.length > 0 ? (
        <Select
          label="Departure"
          value={opening}
          onValue={setOpening}
          options={openings.map((s) => [s.starts_at, dateTime(s.starts_at)] as const)}
          error={errors.starts_at}
        />
      ) : (
        <Field
          label="Start"
          type="datetime-local"
          required
          value={startsAt}
          onValue={setStartsAt}
          error={errors.starts_at}
        />
      )}
      {equipment && (
        <Field
          label="End"
          type="datetime-local"
          required
          value={endsAt}
          onValue={setEndsAt}
          error={errors.ends_at}
        />
      )}
      <Field
        label={equipment ? 'Units' : 'Participants'}
        type="number"
        min={1}
        max={limit}
        required
        value={count}
        onValue={setCount}
        error={equipment ? errors.quantity : errors.participants_count}
      />
      <Field
        label="Notes for the vendor"
        value={notes}
        onValue={setNotes}
        maxLength={5000}
        error={errors.customer_notes}
      />
      <p class="total" aria-live="polite">
        {estimate ? (
          <>
            Total: <strong data-total>{moneyOfCents(estimate.totalCents, listing.currency)}</strong>{' '}
            <span class="muted">
              (
              {equipment
                ? `${plural(estimate.days, 'day', 'days')} × ${plural(units, 'unit', 'units')} × ${money(unitPrice(listing), listing.currency)}`
                : `${plural(units, 'person', 'people')} × ${money(unitPrice(listing), listing.currency)}`}
              )
            </span>
          </>
        ) : (
          'Choose when to see the total.'
        )}
      </p>
      <button type="submit" class="button primary" disabled={busy}>
        Request booking
      </button>
    </form>
  );
}
