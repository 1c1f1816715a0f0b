// The Today page (decisions §23, §26): the manifest of a chosen local date, grouped as the API groups it
// (a section per departure, then pick-ups and returns), with attendance buttons a wet thumb can hit on a
// phone, waiver and payment per booking, a print layout (one page per section) and the CSV download. The
// rules of attendance are the API's: a refused tap shows the API's reason on the booking.
import { useId, useState } from 'preact/hooks';
import { bookedFor } from '../../../src/lib/booked-for.ts';
import { api, call, type Schemas, saveFile } from '../api.ts';
import { BookingAnswers } from '../components/booking-answers.tsx';
import { money, plural, statusWord } from '../format.ts';
import { ErrorMessage, Field, Loading, Page, useAction } from '../ui.tsx';
import { useLoad } from './data.ts';
import { WaiverFacts } from './waiver-facts.tsx';

type Manifest = Schemas['Manifest'];
type ManifestBooking = Schemas['ManifestBooking'];
type Attendance = ManifestBooking['attendance'];

/** Attendance as words (decisions §26). */
const ATTENDANCE_WORDS: Record<Attendance, string> = {
  pending: 'Not checked in',
  checked_in: 'Checked in',
  no_show: 'No-show',
  returned: 'Returned',
};

const PAYMENT_WORDS: Record<NonNullable<ManifestBooking['payment_status']>, string> = {
  requires_payment: 'Payment started',
  processing: 'Payment processing',
  succeeded: 'Paid',
  partially_refunded: 'Paid, partly refunded',
  failed: 'Payment failed',
  refunded: 'Refunded',
};

/** HH:MM of a moment in the vendor's zone. */
const timeOf = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(
    new Date(iso),
  );

const BUTTONS: [Attendance, string][] = [
  ['checked_in', 'Check in'],
  ['no_show', 'No-show'],
  ['returned', 'Returned'],
  ['pending', 'Undo'],
];

function BookingRow({
  booking,
  timeZone,
  onChanged,
}: {
  booking: ManifestBooking;
  timeZone: string;
  onChanged: (booking: ManifestBooking) => void;
}) {
  const headingId = useId();
  // a channel's booking shows its contact, labelled with the channel (decisions §24)
  const { name, phone, via } = bookedFor(booking);
  const equipment = booking.equipment_item_id !== null;
  const mark = useAction(async (status: Attendance) => {
    const changed = await call(() =>
      api.POST('/api/v1/booking/bookings/{id}/attendance/', {
        params: { path: { id: booking.id } },
        body: { status },
      }),
    );
    onChanged({ ...changed, payment_status: booking.payment_status });
  });
  const who = equipment
    ? plural(booking.quantity ?? 1, 'unit', 'units')
    : plural(booking.participants_count ?? 1, 'person', 'people');
  return (
    <article class={`card trip-booking attendance-${booking.attendance}`} aria-labelledby={headingId}>
      <header class="trip-booking-head">
        <h3 id={headingId}>{name}</h3>
        {via && <span class="channel-label">Via {via}</span>}
        <strong class="attendance" data-attendance={booking.attendance}>
          {ATTENDANCE_WORDS[booking.attendance]}
        </strong>
      </header>
      <p class="trip-facts">
        {who} · {statusWord(booking.status)} ·{' '}
        {booking.payment_status ? PAYMENT_WORDS[booking.payment_status] : 'Not paid'} ·{' '}
        {money(booking.total_price, booking.currency)}
        {equipment && ` · ${timeOf(booking.starts_at, timeZone)}–${timeOf(booking.ends_at, timeZone)}`}
      </p>
      {phone && (
        <p>
          <a href={`tel:${phone}`}>{phone}</a>
        </p>
      )}
      {booking.waiver ? (
        <WaiverFacts waiver={booking.waiver} timeZone={timeZone} />
      ) : (
        <p>No waiver accepted</p>
      )}
      <BookingAnswers answers={booking.answers} label={`Answers of ${name}`} />
      {booking.customer_notes && <p class="user-text">Note: {booking.customer_notes}</p>}
      <div class="attendance-buttons">
        {BUTTONS.filter(([to]) => to !== booking.attendance && (to !== 'returned' || equipment)).map(
          ([to, label]) => (
            <button
              key={to}
              type="button"
              class={`button ${to === 'checked_in' ? 'primary' : ''}`}
              disabled={mark.busy}
              onClick={() => mark.run(to)}
            >
              {label}
            </button>
          ),
        )}
      </div>
      <ErrorMessage error={mark.error} />
    </article>
  );
}

/** The manifest with one booking replaced (after a tap), so the page follows without a reload. */
function replaced(manifest: Manifest, booking: ManifestBooking): Manifest {
  const swap = (list: ManifestBooking[]) => list.map((b) => (b.id === booking.id ? booking : b));
  return {
    ...manifest,
    departures: manifest.departures.map((d) => ({ ...d, bookings: swap(d.bookings) })),
    pickups: swap(manifest.pickups),
    returns: swap(manifest.returns),
  };
}

function Section({
  title,
  summary,
  bookings,
  timeZone,
  onChanged,
}: {
  title: string;
  summary?: string;
  bookings: ManifestBooking[];
  timeZone: string;
  onChanged: (booking: ManifestBooking) => void;
}) {
  const headingId = useId();
  return (
    <section class="trip-section stack" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {summary && <p class="muted">{summary}</p>}
      {bookings.map((b) => (
        <BookingRow key={b.id} booking={b} timeZone={timeZone} onChanged={onChanged} />
      ))}
    </section>
  );
}

export function TodayPage() {
  const [date, setDate] = useState('');
  const loaded = useLoad(
    () =>
      call(() => api.GET('/api/v1/booking/vendor/manifest/', { params: { query: date ? { date } : {} } })),
    [date],
  );
  const [changed, setChanged] = useState<ManifestBooking[]>([]);
  const base = loaded.data;
  const manifest = base && changed.reduce(replaced, base);
  const download = useAction(() =>
    saveFile(() =>
      api.GET('/api/v1/booking/vendor/manifest/export/', {
        params: { query: { date: manifest?.date ?? date } },
        parseAs: 'blob',
      }),
    ),
  );
  const onChanged = (booking: ManifestBooking) => setChanged([...changed, booking]);
  const choose = (value: string) => {
    setChanged([]);
    setDate(value);
  };
  const tz = manifest?.time_zone ?? 'UTC';
  const empty =
    manifest && !manifest.departures.length && !manifest.pickups.length && !manifest.returns.length;

  return (
    <Page title="Today">
      <div class="row today-tools">
        <Field label="Date" type="date" required value={date || manifest?.date || ''} onValue={choose} />
        <button type="button" class="button" disabled={download.busy} onClick={() => download.run()}>
          Download CSV
        </button>
        <button type="button" class="button" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <ErrorMessage error={download.error} />
      <ErrorMessage error={loaded.error} />
      {!manifest ? (
        !loaded.error && <Loading what="Loading the day" />
      ) : empty ? (
        <p>Nothing on this day: no departures, pick-ups or returns.</p>
      ) : (
        <div class="stack trip-day">
          {manifest.departures.map((d) => (
            <Section
              key={`${d.listing.id}-${d.starts_at}`}
              title={`${d.listing.title} ${timeOf(d.starts_at, tz)}`}
              summary={
                d.capacity === null
                  ? plural(d.participants, 'person', 'people')
                  : `${d.participants} of ${plural(d.capacity, 'seat', 'seats')}`
              }
              bookings={d.bookings}
              timeZone={tz}
              onChanged={onChanged}
            />
          ))}
          {manifest.pickups.length > 0 && (
            <Section title="Pick-ups" bookings={manifest.pickups} timeZone={tz} onChanged={onChanged} />
          )}
          {manifest.returns.length > 0 && (
            <Section title="Returns" bookings={manifest.returns} timeZone={tz} onChanged={onChanged} />
          )}
        </div>
      )}
    </Page>
  );
}
