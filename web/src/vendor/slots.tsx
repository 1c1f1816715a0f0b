// A listing's availability slots on a month calendar (decisions §5): openings (is_available) make the
// listing bookable only inside them, blocks close a window. Times are this browser's, as the inputs are.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { fromLocalInput, toLocalInput } from '../format.ts';
import { ErrorMessage, Field, fieldErrors, Loading, Select, TableScroll } from '../ui.tsx';
import { type Kind, useLoad } from './data.ts';
import { localDate } from './range.ts';

type Slot = Schemas['Slot'];

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A day cell's key: the local calendar date. */
const dayKey = localDate;

const time = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
const dayAndTime = (iso: string) =>
  new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));

/** The weeks (Monday first) that show the month, each a list of 7 dates. */
function monthWeeks(year: number, month: number): Date[][] {
  const first = new Date(year, month, 1);
  const start = new Date(year, month, 1 - ((first.getDay() + 6) % 7));
  const last = new Date(year, month + 1, 0);
  const weeks: Date[][] = [];
  for (const day = start; day <= last; ) {
    const week: Date[] = [];
    for (let i = 0; i < 7; i++) {
      week.push(new Date(day));
      day.setDate(day.getDate() + 1);
    }
    weeks.push(week);
  }
  return weeks;
}

async function allSlots(kind: Kind, listingId: number): Promise<Slot[]> {
  const query =
    kind === 'equipment' ? { equipment_item_id: listingId } : { adventure_offering_id: listingId };
  const slots: Slot[] = [];
  for (let page = 1; ; page++) {
    const result = await call(() =>
      api.GET('/api/v1/booking/vendor/slots/', { params: { query: { ...query, page, page_size: 100 } } }),
    );
    slots.push(...result.results);
    if (!result.next) return slots.sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  }
}

function SlotForm({
  kind,
  listingId,
  onAdded,
}: {
  kind: Kind;
  listingId: number;
  onAdded: (slot: Slot) => Promise<void>;
}) {
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  const [startsAt, setStartsAt] = useState(toLocalInput(tomorrow.getTime()));
  const [endsAt, setEndsAt] = useState(toLocalInput(tomorrow.getTime() + 8 * 3600_000));
  const [available, setAvailable] = useState('true');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(error);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const listing =
        kind === 'equipment' ? { equipment_item_id: listingId } : { adventure_offering_id: listingId };
      const slot = await call(() =>
        api.POST('/api/v1/booking/vendor/slots/', {
          body: {
            ...listing,
            starts_at: fromLocalInput(startsAt),
            ends_at: fromLocalInput(endsAt),
            is_available: available === 'true',
          },
        }),
      );
      await onAdded(slot);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack narrow" onSubmit={submit}>
      <h3>Add a slot</h3>
      <ErrorMessage error={error} />
      <Field
        label="Slot start"
        type="datetime-local"
        required
        value={startsAt}
        onValue={setStartsAt}
        error={errors.starts_at}
      />
      <Field
        label="Slot end"
        type="datetime-local"
        required
        value={endsAt}
        onValue={setEndsAt}
        error={errors.ends_at}
      />
      <Select
        label="Slot type"
        value={available}
        onValue={setAvailable}
        options={[
          ['true', 'Opening: bookable in this window'],
          ['false', 'Block: not bookable in this window'],
        ]}
        error={errors.is_available}
      />
      <p class="hint">
        Once a listing has an opening, it can be booked only inside an opening. A block closes its window
        either way.
      </p>
      <button type="submit" class="button primary" disabled={busy}>
        Add slot
      </button>
    </form>
  );
}

export function SlotCalendar({ kind, listingId }: { kind: Kind; listingId: number }) {
  const headingId = useId();
  const now = new Date();
  const [month, setMonth] = useState({ year: now.getFullYear(), month: now.getMonth() });
  const [error, setError] = useState<unknown>(null);
  const slots = useLoad(() => allSlots(kind, listingId), [kind, listingId]);
  const byDay = new Map<string, Slot[]>();
  for (const slot of slots.data ?? []) {
    const key = dayKey(new Date(slot.starts_at));
    byDay.set(key, [...(byDay.get(key) ?? []), slot]);
  }
  const title = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }).format(
    new Date(month.year, month.month, 1),
  );
  const shift = (by: number) => {
    const d = new Date(month.year, month.month + by, 1);
    setMonth({ year: d.getFullYear(), month: d.getMonth() });
  };
  const remove = async (slot: Slot) => {
    setError(null);
    try {
      await call(() =>
        api.DELETE('/api/v1/booking/vendor/slots/{id}/', { params: { path: { id: slot.id } } }),
      );
      await slots.reload();
    } catch (e) {
      setError(e);
    }
  };
  const showMonthOf = async (slot: Slot) => {
    const d = new Date(slot.starts_at);
    setMonth({ year: d.getFullYear(), month: d.getMonth() });
    await slots.reload();
  };

  return (
    <section class="slots" aria-labelledby={headingId}>
      <h2 id={headingId}>Availability slots</h2>
      <p class="hint">Times in this browser's time zone ({browserZone}).</p>
      <ErrorMessage error={slots.error ?? error} />
      <div class="row month-nav">
        <button type="button" class="button" onClick={() => shift(-1)}>
          Previous month
        </button>
        <h3 aria-live="polite">{title}</h3>
        <button type="button" class="button" onClick={() => shift(1)}>
          Next month
        </button>
      </div>
      {!slots.data ? (
        !slots.error && <Loading />
      ) : (
        <TableScroll label="Calendar">
          <table class="calendar">
            <caption class="visually-hidden">Slots in {title}</caption>
            <thead>
              <tr>
                {WEEKDAYS.map((day) => (
                  <th key={day} scope="col">
                    <abbr title={day}>{day.slice(0, 3)}</abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {monthWeeks(month.year, month.month).map((week) => (
                <tr key={dayKey(week[0] as Date)}>
                  {week.map((day) => {
                    const key = dayKey(day);
                    const daySlots = byDay.get(key) ?? [];
                    return (
                      <td key={key} class={day.getMonth() === month.month ? undefined : 'other-month'}>
                        <span class="day-number">{day.getDate()}</span>
                        {daySlots.length > 0 && (
                          <ul class="day-slots">
                            {daySlots.map((slot) => (
                              <li key={slot.id} class={slot.is_available ? 'slot-open' : 'slot-blocked'}>
                                {slot.is_available ? 'Open' : 'Blocked'} {time(slot.starts_at)}–
                                {dayKey(new Date(slot.ends_at)) === key
                                  ? time(slot.ends_at)
                                  : dayAndTime(slot.ends_at)}{' '}
                                <button
                                  type="button"
                                  class="link-button"
                                  onClick={() => remove(slot)}
                                  aria-label={`Delete slot ${dayAndTime(slot.starts_at)} to ${dayAndTime(slot.ends_at)}`}
                                >
                                  Delete
                                </button>
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <SlotForm kind={kind} listingId={listingId} onAdded={showMonthOf} />
    </section>
  );
}
