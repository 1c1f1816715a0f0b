// A scheduled offering's departures as a customer meets them (decisions §19, §26): the coming ones in a
// table, and the booking panel's date field with that day's departures to choose from. Dates, times,
// seats left and statuses are the API's: `local_date`/`local_time` are already in the vendor's zone, so
// the browser never converts a time.
import { useEffect, useId, useState } from 'preact/hooks';
import { calendarDate } from '../format.ts';
import { ErrorMessage, Field, Loading, Notice } from '../ui.tsx';
import { type Booking, BookingForm } from './booking-form.tsx';
import { type Adventure, type Departure, type DepartureList, fetchDepartures } from './listing.ts';

const DAY_MS = 86_400_000;

/** Open for booking: the API's status, not a rule of the page's own. */
const bookable = (departure: Departure) => departure.status === 'available' || departure.status === 'limited';

/** What a departure has left, in the words the page shows and a screen reader reads (decisions §26). */
export function seatsWords(departure: Departure): string {
  if (departure.status === 'closed') return 'Closed';
  if (departure.status === 'sold_out') return 'Sold out';
  return `${departure.remaining} left`;
}

/** The coming departures (the API's default range), loaded once the listing is known to be scheduled. */
export function useUpcomingDepartures(listing: Adventure | undefined): {
  list?: DepartureList;
  error: unknown;
} {
  const [list, setList] = useState<DepartureList | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const publicId = listing?.public_id;
  useEffect(() => {
    setList(undefined);
    setError(null);
    if (publicId) fetchDepartures(publicId).then(setList, setError);
  }, [publicId]);
  return { list, error };
}

/** The departures by local date, in the API's order (by start). */
function byDate(departures: Departure[]): [string, Departure[]][] {
  const days = new Map<string, Departure[]>();
  for (const departure of departures)
    days.set(departure.local_date, [...(days.get(departure.local_date) ?? []), departure]);
  return [...days];
}

/** The coming departures, a row a day: each start time with its seats left or why it cannot be booked. */
export function DepartureTable({ list }: { list: DepartureList }) {
  if (list.departures.length === 0) return <Notice>No departures in the coming two weeks.</Notice>;
  return (
    <div class="table-scroll">
      <table class="availability departures-table">
        <caption class="visually-hidden">Departures in the coming two weeks</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Departures</th>
          </tr>
        </thead>
        <tbody>
          {byDate(list.departures).map(([localDate, departures]) => (
            <tr key={localDate}>
              <th scope="row">{calendarDate(localDate)}</th>
              <td>
                <ul class="day-departures">
                  {departures.map((departure) => (
                    <li key={departure.starts_at} class={bookable(departure) ? 'free' : 'taken'}>
                      {departure.local_time} · {seatsWords(departure)}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Every instant of a local date, in any zone (UTC−12 to UTC+14), lies between the day before and the day
 * after it in UTC: the API is asked for those three days and its `local_date` keeps the date's own.
 */
function around(localDate: string): { from: string; to: string } {
  const midnight = Date.parse(`${localDate}T00:00:00Z`);
  return {
    from: new Date(midnight - DAY_MS).toISOString(),
    to: new Date(midnight + 2 * DAY_MS).toISOString(),
  };
}

function useDeparturesOn(publicId: string, localDate: string) {
  const [departures, setDepartures] = useState<Departure[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setDepartures(undefined);
    setError(null);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(localDate)) return;
    let current = true;
    fetchDepartures(publicId, around(localDate)).then(
      (list) => current && setDepartures(list.departures.filter((d) => d.local_date === localDate)),
      (e) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [publicId, localDate]);
  return { departures, error };
}

/** The date field and that date's departures as radio buttons; full and closed ones cannot be chosen. */
function DeparturePicker({
  listing,
  initialDate,
  chosen,
  onChoose,
}: {
  listing: Adventure;
  initialDate: string;
  chosen: Departure | null;
  onChoose: (departure: Departure | null) => void;
}) {
  const [localDate, setLocalDate] = useState(initialDate);
  const { departures, error } = useDeparturesOn(listing.public_id, localDate);
  const name = useId();
  const pickDate = (value: string) => {
    onChoose(null);
    setLocalDate(value);
  };
  return (
    <div class="stack">
      <Field label="Date" type="date" required value={localDate} onValue={pickDate} />
      <ErrorMessage error={error} />
      {localDate === '' ? (
        <p class="muted">Choose a date to see its departures.</p>
      ) : !departures ? (
        !error && <Loading what="Finding departures" />
      ) : departures.length === 0 ? (
        <p>No departures on {calendarDate(localDate)}.</p>
      ) : (
        <fieldset class="departure-options">
          <legend>Departures on {calendarDate(localDate)}</legend>
          {departures.map((departure) => (
            <label key={departure.starts_at} class={bookable(departure) ? undefined : 'unavailable'}>
              <input
                type="radio"
                name={name}
                value={departure.starts_at}
                checked={chosen?.starts_at === departure.starts_at}
                disabled={!bookable(departure)}
                onChange={() => onChoose(departure)}
              />{' '}
              <strong>{departure.local_time}</strong> · {seatsWords(departure)}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}

/**
 * Booking a scheduled offering: a date, one of its departures, then participants and the request, which
 * names the departure's start (decisions §19). The first date offered is the first one with seats.
 */
export function ScheduledBooking({
  listing,
  upcoming,
  clickId,
  onBooked,
}: {
  listing: Adventure;
  upcoming: DepartureList;
  clickId: number | null;
  onBooked: (booking: Booking) => void;
}) {
  const [chosen, setChosen] = useState<Departure | null>(null);
  const first = upcoming.departures.find(bookable) ?? upcoming.departures[0];
  return (
    <div class="stack">
      <DeparturePicker
        listing={listing}
        initialDate={first?.local_date ?? ''}
        chosen={chosen}
        onChoose={setChosen}
      />
      {chosen && (
        <BookingForm
          key={chosen.starts_at}
          listing={listing}
          slots={[]}
          departure={chosen}
          clickId={clickId}
          onBooked={onBooked}
        />
      )}
    </div>
  );
}
