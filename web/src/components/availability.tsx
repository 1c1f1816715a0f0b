import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { date, dateTime } from '../format.ts';
import { ErrorMessage, Loading } from '../ui.tsx';
import { isEquipment, type Listing } from './listing.ts';

type Slot = Schemas['Slot'];
type Availability = Schemas['Availability'];

const DAY_MS = 86_400_000;
/** How far ahead the availability view looks. */
export const AHEAD_DAYS = 28;
/** Days shown for a listing without slots (bookable any time the units allow). */
const DAYS_SHOWN = 14;
const SLOTS_SHOWN = 20;

const listingIds = (listing: Listing) =>
  isEquipment(listing) ? { equipment_item_id: listing.id } : { adventure_offering_id: listing.id };

/** The listing's slots of the coming weeks (public), earliest first; undefined while loading. */
export function useSlots(listing: Listing | undefined): { slots?: Slot[]; error: unknown } {
  const [slots, setSlots] = useState<Slot[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!listing) return;
    const now = Date.now();
    call(() =>
      api.GET('/api/v1/booking/slots/', {
        params: {
          query: {
            ...listingIds(listing),
            from: new Date(now).toISOString(),
            to: new Date(now + AHEAD_DAYS * DAY_MS).toISOString(),
            page_size: 100,
          },
        },
      }),
    ).then(
      (page) => setSlots([...page.results].sort((a, b) => a.starts_at.localeCompare(b.starts_at))),
      setError,
    );
  }, [listing?.id, listing && isEquipment(listing)]);
  return { slots, error };
}

const checkWindow = (listing: Listing, startsAt: number, endsAt: number) =>
  call(() =>
    api.GET('/api/v1/booking/availability/', {
      params: {
        query: {
          ...listingIds(listing),
          starts_at: new Date(startsAt).toISOString(),
          ends_at: new Date(endsAt).toISOString(),
        },
      },
    }),
  );

/** One window of the view: when, and what is free in it. */
interface Row {
  key: string;
  when: string;
  availability: Availability;
}

function freeWords(listing: Listing, availability: Availability): string {
  if (availability.remaining === 0) return 'Fully booked';
  const noun = isEquipment(listing)
    ? availability.remaining === 1
      ? 'unit'
      : 'units'
    : availability.remaining === 1
      ? 'place'
      : 'places';
  return `${availability.remaining} ${noun} free`;
}

/**
 * What is free in the coming weeks: each open slot with the units or seats left in it, or, for a listing
 * without slots, each of the next days. A table, so a screen reader reads each row's date with its answer.
 */
export function AvailabilityView({ listing, slots }: { listing: Listing; slots: Slot[] }) {
  const [rows, setRows] = useState<Row[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const now = Date.now();
    const open = slots.filter((s) => s.is_available && Date.parse(s.ends_at) > now).slice(0, SLOTS_SHOWN);
    const windows: { key: string; when: string; startsAt: number; endsAt: number }[] = [];
    if (open.length > 0) {
      for (const slot of open)
        windows.push({
          key: `slot-${slot.id}`,
          when: `${dateTime(slot.starts_at)} – ${dateTime(slot.ends_at)}`,
          startsAt: Math.max(Date.parse(slot.starts_at), now),
          endsAt: Date.parse(slot.ends_at),
        });
    } else {
      const today = new Date();
      today.setHours(0, 0, 0, 0);
      for (let day = 0; day < DAYS_SHOWN; day++) {
        const start = new Date(today);
        start.setDate(today.getDate() + day);
        const end = new Date(start);
        end.setDate(start.getDate() + 1);
        windows.push({
          key: `day-${day}`,
          when: date(start.toISOString()),
          // today counts from now: a window starting in the past is never free
          startsAt: Math.max(start.getTime(), now + 60_000),
          endsAt: end.getTime(),
        });
      }
    }
    Promise.all(
      windows.map(async (w) => ({
        key: w.key,
        when: w.when,
        availability: await checkWindow(listing, w.startsAt, w.endsAt),
      })),
    ).then(setRows, setError);
  }, [listing.id, slots]);

  if (error) return <ErrorMessage error={error} />;
  if (!rows) return <Loading what="Checking availability" />;
  const blocked = slots.filter((s) => !s.is_available);
  return (
    <div class="stack">
      <div class="table-scroll">
        <table class="availability">
          <caption class="visually-hidden">Availability in the coming weeks</caption>
          <thead>
            <tr>
              <th scope="col">{rows[0]?.key.startsWith('slot') ? 'Time slot' : 'Day'}</th>
              <th scope="col">Free</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <td>{row.when}</td>
                <td class={row.availability.remaining ? 'free' : 'taken'}>
                  {freeWords(listing, row.availability)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {blocked.length > 0 && (
        <div>
          <h3>Closed</h3>
          <ul>
            {blocked.map((slot) => (
              <li key={slot.id}>
                {dateTime(slot.starts_at)} – {dateTime(slot.ends_at)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
