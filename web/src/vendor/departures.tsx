// An offering's coming departures on its editor page (decisions §19, §26): seats sold of the capacity, the
// state as a word, and Close, Reopen and Cancel departure. Cancelling asks first, naming how many bookings
// it cancels and what it refunds, figures the API gives.
import { useEffect, useId, useState } from 'preact/hooks';
import { api, call } from '../api.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { calendarDate, money, plural } from '../format.ts';
import { ErrorMessage, Loading, Notice, TableScroll, TextArea, useAction } from '../ui.tsx';
import { type Adventure, useLoad } from './data.ts';

const DAY_MS = 86_400_000;
/** The list starts with two weeks and grows by two; the API answers at most 92 days at once. */
const STEP_DAYS = 14;
const MAX_DAYS = 91;

function vendorDepartures(offeringId: number, days: number) {
  const now = Date.now();
  return call(() =>
    api.GET('/api/v1/adventrues/vendor/offerings/{id}/departures/', {
      params: {
        path: { id: offeringId },
        query: { from: new Date(now).toISOString(), to: new Date(now + days * DAY_MS).toISOString() },
      },
    }),
  );
}
type Departure = Awaited<ReturnType<typeof vendorDepartures>>['departures'][number];

const when = (departure: Departure) => `${departure.local_time} on ${calendarDate(departure.local_date)}`;

/** Cancelled and still closed: a vendor may reopen a cancelled departure (the weather turned), and sell it again. */
const isCancelled = (departure: Departure) => departure.cancelled_at !== null && departure.closed_by !== null;

/** The departure's state in words: cancelled, or why it is closed (the API's `closed_by`), or its seats. */
function stateWords(departure: Departure): string {
  if (isCancelled(departure)) return 'Cancelled';
  if (departure.closed_by === 'vendor') return 'Closed';
  if (departure.closed_by === 'cutoff') return 'Booking closed';
  if (departure.closed_by === 'slot') return 'Blocked';
  if (departure.status === 'sold_out') return 'Sold out';
  return 'Open';
}

/** Closed by the vendor (not by its cutoff or a blocking slot), so the vendor can reopen it. */
const closedByVendor = (departure: Departure) => departure.closed_by === 'vendor';

export const departurePath = (offeringId: number, departure: { starts_at: string }) => ({
  params: { path: { id: offeringId, starts_at: departure.starts_at } },
});

/** What cancelling would do now, as the API computes it: the bookings it cancels and what it refunds. */
const cancellationPreview = (offeringId: number, departure: Departure) =>
  call(() =>
    api.GET(
      '/api/v1/adventrues/vendor/offerings/{id}/departures/{starts_at}/cancellation/',
      departurePath(offeringId, departure),
    ),
  );
type CancellationPreview = Awaited<ReturnType<typeof cancellationPreview>>;

/** The preview in words, its figures marked for a reader and for the browser tests. */
function PreviewWords({ preview }: { preview: CancellationPreview }) {
  const bookings = preview.booking_ids.length;
  if (bookings === 0) return <p>No booking holds it: cancelling closes it for good.</p>;
  return (
    <p>
      It cancels <strong data-bookings>{plural(bookings, 'booking', 'bookings')}</strong> (
      {preview.paid_bookings} paid) and refunds{' '}
      <strong data-refund>{money(preview.refund_amount, preview.currency)}</strong> to the customers who paid.
      It cannot be undone.
    </p>
  );
}

function CancelDeparture({
  offering,
  departure,
  onDone,
  onClose,
}: {
  offering: Adventure;
  departure: Departure;
  onDone: (message: string) => Promise<void>;
  onClose: () => void;
}) {
  const preview = useLoad(
    () => cancellationPreview(offering.id, departure),
    [offering.id, departure.starts_at],
  );
  const [note, setNote] = useState('');
  const cancel = useAction(async () => {
    const result = await call(() =>
      api.POST('/api/v1/adventrues/vendor/offerings/{id}/departures/{starts_at}/cancel/', {
        ...departurePath(offering.id, departure),
        body: { note },
      }),
    );
    const n = result.cancelled_booking_ids.length;
    await onDone(`Departure ${when(departure)} cancelled, with ${plural(n, 'booking', 'bookings')}.`);
  });
  return (
    <ConfirmDialog
      title={`Cancel the departure at ${when(departure)}?`}
      confirmText="Yes, cancel departure"
      cancelText="Keep departure"
      busy={cancel.busy || !preview.data}
      onConfirm={cancel.run}
      onClose={onClose}
    >
      <ErrorMessage error={preview.error ?? cancel.error} />
      {!preview.data ? (
        !preview.error && <Loading what="Counting its bookings" />
      ) : (
        <PreviewWords preview={preview.data} />
      )}
      <TextArea label="Note to the customers" value={note} onValue={setNote} rows={2} />
    </ConfirmDialog>
  );
}

function DepartureRow({
  offering,
  departure,
  onChange,
  onCancel,
}: {
  offering: Adventure;
  departure: Departure;
  onChange: () => Promise<void>;
  onCancel: () => void;
}) {
  const toggle = useAction(async () => {
    await call(() =>
      api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/departures/{starts_at}/', {
        ...departurePath(offering.id, departure),
        body: { is_closed: !closedByVendor(departure) },
      }),
    );
    await onChange();
  });
  return (
    <tr data-starts-at={departure.starts_at}>
      <th scope="row">{calendarDate(departure.local_date)}</th>
      <td>{departure.local_time}</td>
      <td>
        {departure.booked} of {departure.capacity}
      </td>
      <td>{departure.bookings}</td>
      <td>{stateWords(departure)}</td>
      <td>
        <div class="row">
          {/* once its cutoff has passed, closing or reopening it changes nothing a customer can do */}
          {departure.closed_by !== 'cutoff' && (
            <button
              type="button"
              class="button"
              disabled={toggle.busy}
              onClick={toggle.run}
              aria-label={`${closedByVendor(departure) ? 'Reopen' : 'Close'} ${when(departure)}`}
            >
              {closedByVendor(departure) ? 'Reopen' : 'Close'}
            </button>
          )}
          {!isCancelled(departure) && (
            <button
              type="button"
              class="button danger"
              onClick={onCancel}
              aria-label={`Cancel departure ${when(departure)}`}
            >
              Cancel departure
            </button>
          )}
        </div>
        <ErrorMessage error={toggle.error} />
      </td>
    </tr>
  );
}

/** The offering's coming departures, with the vendor's actions on each. */
export function DepartureList({ offering }: { offering: Adventure }) {
  const headingId = useId();
  const [days, setDays] = useState(STEP_DAYS);
  const departures = useLoad(() => vendorDepartures(offering.id, days), [offering.id, days]);
  const [cancelling, setCancelling] = useState<Departure | null>(null);
  const [message, setMessage] = useState('');
  useEffect(() => setMessage(''), [offering.id]);
  const list = departures.data?.departures;
  return (
    <section class="departures" aria-labelledby={headingId}>
      <h2 id={headingId}>Departures</h2>
      {departures.data && (
        <p class="hint">Dates and times in your time zone ({departures.data.time_zone}).</p>
      )}
      {message && <Notice>{message}</Notice>}
      <ErrorMessage error={departures.error} />
      {!list ? (
        !departures.error && <Loading what="Loading departures" />
      ) : list.length === 0 ? (
        <p>No departures in the coming {days} days.</p>
      ) : (
        <TableScroll label="Departures">
          <table>
            <caption class="visually-hidden">Coming departures</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Time</th>
                <th scope="col">Seats sold</th>
                <th scope="col">Bookings</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((departure) => (
                <DepartureRow
                  key={departure.starts_at}
                  offering={offering}
                  departure={departure}
                  onChange={departures.reload}
                  onCancel={() => setCancelling(departure)}
                />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {days < MAX_DAYS && (
        <button
          type="button"
          class="button"
          onClick={() => setDays((d) => Math.min(MAX_DAYS, d + STEP_DAYS))}
        >
          Show two more weeks
        </button>
      )}
      {cancelling && (
        <CancelDeparture
          offering={offering}
          departure={cancelling}
          onClose={() => setCancelling(null)}
          onDone={async (text) => {
            setCancelling(null);
            setMessage(text);
            await departures.reload();
          }}
        />
      )}
    </section>
  );
}
