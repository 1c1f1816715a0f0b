import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { dateTime, fromLocalInput, toLocalInput } from '../format.ts';
import { ErrorMessage, Field, fieldErrors, Select } from '../ui.tsx';
import { type Adventure, type Departure, type Equipment, isEquipment, type Listing } from './listing.ts';
import { applyOnEnter, PriceChoices, useChoices } from './price-choices.tsx';
import { type QuoteBody, QuoteTotal, useQuote } from './quote.tsx';
import { useRentalWindow } from './rental-window.tsx';

type Slot = Schemas['Slot'];
export type Booking = Schemas['Booking'];

const DAY_MS = 86_400_000;

/** Tomorrow at 09:00 in the browser's time zone: a start the form can offer before anyone types. */
function tomorrowMorning(): number {
  const d = new Date(Date.now() + DAY_MS);
  d.setHours(9, 0, 0, 0);
  return d.getTime();
}

interface FormProps {
  slots: Slot[];
  departure?: Departure;
  clickId: number | null;
  onBooked: (booking: Booking) => void;
}

/**
 * The booking request of one listing, with the total it will cost from the API's quote as the customer
 * chooses (decisions §21: no price is computed here); the booking carries the page's marketing click
 * (decisions §18). Equipment is booked for a pick-up and a return inside the vendor's opening hours and the
 * item's duration limits; a scheduled offering for the `departure` chosen beside the form.
 */
export function BookingForm({ listing, ...props }: FormProps & { listing: Listing }) {
  return isEquipment(listing) ? (
    <RentalForm item={listing} {...props} />
  ) : (
    <AdventureForm offering={listing} {...props} />
  );
}

function RentalForm({ item, ...props }: FormProps & { item: Equipment }) {
  const [error, setError] = useState<unknown>(null);
  const rental = useRentalWindow(item, fieldErrors(error));
  const body = (units: number) =>
    rental.window && { equipment_item_id: item.id, ...rental.window, quantity: units };
  return (
    <RequestForm
      listing={item}
      limit={item.quantity}
      unitsLabel="Units"
      body={body}
      error={error}
      setError={setError}
      {...props}
    >
      {rental.fields}
    </RequestForm>
  );
}

function AdventureForm({ offering, departure, ...props }: FormProps & { offering: Adventure }) {
  const [error, setError] = useState<unknown>(null);
  // an unscheduled adventure with openings is booked from one of them
  const openings = props.slots.filter((s) => s.is_available && Date.parse(s.starts_at) > Date.now());
  const [startsAt, setStartsAt] = useState(toLocalInput(tomorrowMorning()));
  const [opening, setOpening] = useState(openings[0]?.starts_at ?? '');
  const errors = fieldErrors(error);
  // a half-typed date-time is no start yet (nothing to price or request)
  const typed = Number.isFinite(Date.parse(startsAt)) ? fromLocalInput(startsAt) : '';
  const start = departure ? departure.starts_at : openings.length > 0 ? opening : typed;
  const body = (units: number) =>
    start ? { adventure_offering_id: offering.id, starts_at: start, participants_count: units } : null;
  return (
    <RequestForm
      listing={offering}
      limit={departure?.remaining ?? offering.capacity}
      unitsLabel="Participants"
      body={body}
      error={error}
      setError={setError}
      {...props}
    >
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
    </RequestForm>
  );
}

/**
 * The fields both kinds share (units or participants, or a field per price category; a field per extra;
 * the promo code), the quote's lines and total, and the request itself.
 */
function RequestForm({
  listing,
  limit,
  unitsLabel,
  body,
  error,
  setError,
  clickId,
  onBooked,
  children,
}: Omit<FormProps, 'slots' | 'departure'> & {
  listing: Listing;
  limit: number;
  unitsLabel: 'Units' | 'Participants';
  /** the request's listing, window and units; null while the window is incomplete */
  body: (units: number) => QuoteBody | null;
  error: unknown;
  setError: (error: unknown) => void;
  children: ComponentChildren;
}) {
  const [count, setCount] = useState('1');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const units = Math.max(1, Math.floor(Number(count)) || 1);
  const choices = useChoices(listing);
  const window = body(units);
  // by category, the participants are the categories' sum (participants_count left out)
  const asked = window && {
    ...window,
    ...(choices.byCategory ? { participants_count: undefined } : {}),
    ...choices.body,
  };
  const quote = useQuote(asked);
  const errors = { ...fieldErrors(quote.error), ...fieldErrors(error) };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!asked) return;
    setBusy(true);
    setError(null);
    try {
      const booking = await call(() =>
        api.POST('/api/v1/booking/bookings/request/', {
          body: { ...asked, customer_notes: notes, marketing_click_id: clickId },
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
      {children}
      {!choices.byCategory && (
        <Field
          label={unitsLabel}
          type="number"
          min={1}
          max={limit}
          required
          value={count}
          onValue={setCount}
          error={unitsLabel === 'Units' ? errors.quantity : errors.participants_count}
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
      <QuoteTotal quote={quote.quote} error={quote.error} />
      <button type="submit" class="button primary" disabled={busy || !asked}>
        Request booking
      </button>
    </form>
  );
}
