import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { dateTime, fromLocalInput, toLocalInput } from '../format.ts';
import { ErrorMessage, Field, fieldErrors, Select } from '../ui.tsx';
import { type Departure, isEquipment, type Listing } from './listing.ts';
import { applyOnEnter, PriceChoices, useChoices } from './price-choices.tsx';
import { PriceLines } from './price-lines.tsx';
import { type RequestBody, useQuote } from './quote.ts';

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
 * The booking request of one listing, with its price lines and total from POST quote as the customer
 * changes it (decisions §21: no price is computed in the browser); the booking carries the page's
 * marketing click (decisions §18). A scheduled offering's request is for the `departure` chosen beside the
 * form: it has no start field of its own.
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
  const choices = useChoices(listing);

  const startIso = () =>
    departure ? departure.starts_at : openings.length > 0 ? opening : fromLocalInput(startsAt);
  const units = Math.max(1, Math.floor(Number(count)) || 1);
  const window = { startsAt: Date.parse(startIso()), endsAt: Date.parse(fromLocalInput(endsAt)) };
  const valid = Number.isFinite(window.startsAt) && (!equipment || window.endsAt > window.startsAt);
  const limit = isEquipment(listing) ? listing.quantity : (departure?.remaining ?? listing.capacity);

  /** The request as the form stands: what is quoted, and what is sent. */
  const body = (): RequestBody => ({
    ...(isEquipment(listing)
      ? { equipment_item_id: listing.id, ends_at: fromLocalInput(endsAt), quantity: units }
      : {
          adventure_offering_id: listing.id,
          ...(choices.byCategory ? {} : { participants_count: units }),
        }),
    starts_at: startIso(),
    ...choices.body,
  });
  const { quote, error: quoteError } = useQuote(valid ? body() : null);
  const errors = { ...fieldErrors(quoteError), ...fieldErrors(error) };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const booking = await call(() =>
        api.POST('/api/v1/booking/bookings/request/', {
          body: { ...body(), customer_notes: notes, marketing_click_id: clickId },
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
    <form class="stack narrow" onSubmit={submit} onKeyDown={applyOnEnter(choices)} aria-label="Book">
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
      {!choices.byCategory && (
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
      )}
      <PriceChoices listing={listing} choices={choices} errors={errors} />
      <Field
        label="Notes for the vendor"
        value={notes}
        onValue={setNotes}
        maxLength={5000}
        error={errors.customer_notes}
      />
      <div aria-live="polite">
        {quote ? (
          <PriceLines lines={quote.price_lines} total={quote.total_price} currency={quote.currency} />
        ) : (
          <p class="total">
            {!valid
              ? 'Choose when to see the total.'
              : quoteError
                ? 'No total yet: see the message above.'
                : 'Pricing…'}
          </p>
        )}
      </div>
      <button type="submit" class="button primary" disabled={busy}>
        Request booking
      </button>
    </form>
  );
}
