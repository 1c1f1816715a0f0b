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

/** How far past the coming two weeks the page looks for the next departure with seats (the API's most). */
const LOOK_AHEAD_DAYS = 92;

export interface Upcoming {
  /** the coming departures (the API's default range) */
  list?: DepartureList;
  /** the first of them with seats, or the first after them (a season that starts later); null: none */
  next?: Departure | null;
  error: unknown;
}

async function loadUpcoming(publicId: string): Promise<Required<Omit<Upcoming, 'error'>>> {
  const list = await fetchDepartures(publicId);
  const soon = list.departures.find(bookable);
  if (soon) return { list, next: soon };
  const later = await fetchDepartures(publicId, {
    from: list.to,
    to: new Date(Date.parse(list.to) + LOOK_AHEAD_DAYS * DAY_MS).toISOString(),
  });
  return { list, next: later.departures.find(bookable) ?? null };
}

/** The coming departures, loaded once the listing is known to be scheduled. */
export function useUpcomingDepartures(listing: Adventure | undefined): Upcoming {
  const [upcoming, setUpcoming] = useState<Upcoming>({ error: null });
  const publicId = listing?.public_id;
  useEffect(() => {
    setUpcoming({ error: null });
    if (!publicId) return;
    let current = true;
    loadUpcoming(publicId).then(
      (loaded) => current && setUpcoming({ ...loaded, error: null }),
      (error) => current && setUpcoming({ error }),
    );
    return () => {
      current = false;
    };
  }, [publicId]);
  return upcoming;
}

/** The departures by local date, in the API's order (by start). */
function byDate(departures: Departure[]): [string, Departure[]][] {
  const days = new Map<string, Departure[]>();
  for (const departure of departures)
    days.set(departure.local_date, [...(days.get(departure.local_date) ?? []), departure]);
  return [...days];
}

/** The coming departures, a row a day: each start time with its seats left or why it cannot be booked. */
export function DepartureTable({ list, next }: { list: DepartureList; next: Departure | null }) {
  if (list.departures.length === 0)
    return (
      <Notice>
        No departures in the coming two weeks.
        {next && ` The next one with seats leaves on ${calendarDate(next.local_date)} at ${next.local_time}.`}
      </Notice>
    );
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
  list,
  next,
  clickId,
  onBooked,
}: {
  listing: Adventure;
  list: DepartureList;
  next: Departure | null;
  clickId: number | null;
  onBooked: (booking: Booking) => void;
}) {
  const [chosen, setChosen] = useState<Departure | null>(null);
  const first = next ?? list.departures[0];
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
