// The bookings inbox: every booking of the vendor's listings, filtered by state, with the customer's
// contact, the deadline that applies, and the vendor's actions (decisions §6, §11, §12).
import { useId, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { bookedFor } from '../../../src/lib/booked-for.ts';
import { channelMoveRefusal, nextStatus } from '../../../src/modules/booking/booking.state-machine.ts';
import { api, call, type Schemas } from '../api.ts';
import { BookingAnswers } from '../components/booking-answers.tsx';
import { PriceLines } from '../components/price-lines.tsx';
import { dateTime, STATUS_WORDS, statusWord } from '../format.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Loading, Notice, Page, Select, TextArea } from '../ui.tsx';
import { useLoad } from './data.ts';
import { useMay } from './permissions.tsx';
import { WaiverFacts } from './waiver-facts.tsx';

type Booking = Schemas['Booking'];
type Status = Booking['status'];

const STATUS_OPTIONS = [['', 'All states'], ...Object.entries(STATUS_WORDS)] as const;

/** What a deadline means depends on the state: the vendor answers a request, the customer pays. */
export function deadline(booking: Booking, timeZone: string): string | null {
  if (!booking.expires_at) return null;
  const when = dateTime(booking.expires_at, timeZone);
  // a channel's hold is the channel's to confirm (decisions §24): the vendor has nothing to answer
  if (booking.status === 'requested')
    return booking.channel ? `Held by ${booking.channel.name} until ${when}` : `Answer before ${when}`;
  if (booking.status === 'approved') return `Customer pays before ${when}`;
  return null;
}

export function StatusBadge({ status }: { status: Status }) {
  return <span class={`status status-${status}`}>{statusWord(status)}</span>;
}

/** Units, seats or nothing: equipment has quantity, adventures participants. */
function amountBooked(booking: Booking): string {
  if (booking.quantity !== null) return `${booking.quantity} ${booking.quantity === 1 ? 'unit' : 'units'}`;
  const n = booking.participants_count ?? 1;
  return `${n} ${n === 1 ? 'participant' : 'participants'}`;
}

type Action = 'approve' | 'decline' | 'cancel';

async function act(action: Action, id: number, note: string): Promise<void> {
  const path = { params: { path: { id } } };
  // The note goes into the status history; on approve and decline it is also the booking's vendor_notes,
  // which the customer reads on the booking.
  if (action === 'approve')
    await call(() =>
      api.POST('/api/v1/booking/bookings/{id}/approve/', { ...path, body: { note, vendor_notes: note } }),
    );
  else if (action === 'decline')
    await call(() =>
      api.POST('/api/v1/booking/bookings/{id}/decline/', { ...path, body: { note, vendor_notes: note } }),
    );
  else
    await call(() => api.POST('/api/v1/booking/bookings/{id}/vendor-cancel/', { ...path, body: { note } }));
}

const CONFIRMATIONS: Record<Exclude<Action, 'approve'>, { question: string; yes: string; no: string }> = {
  decline: {
    question: 'Decline this request? Its dates become free again.',
    yes: 'Yes, decline',
    no: 'Keep it',
  },
  cancel: {
    question:
      'Cancel this booking? Its dates become free again, and a paid booking is refunded to the customer in full.',
    yes: 'Yes, cancel booking',
    no: 'Keep booking',
  },
};

function Actions({ booking, onDone }: { booking: Booking; onDone: () => Promise<void> }) {
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<Exclude<Action, 'approve'> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // the server's own rules: the state machine, and a channel's hold left to its channel
  const channelId = booking.channel?.id ?? null;
  const may = (action: 'approve' | 'decline') =>
    nextStatus(booking.status, action) !== null &&
    channelMoveRefusal(action, booking.status, channelId) === undefined;
  const canApprove = may('approve');
  const canDecline = may('decline');
  const canCancel = nextStatus(booking.status, 'vendor_cancel') !== null;
  // a vendor's cancel refunds a paid booking: only the roles that may refund see it (decisions §25)
  const mayCancel = useMay()('POST /api/v1/booking/bookings/{id}/vendor-cancel/');
  if (!canCancel || (!canDecline && !mayCancel)) return null;

  const run = async (action: Action) => {
    setBusy(true);
    setError(null);
    try {
      await act(action, booking.id, note.trim());
      setConfirming(null);
      setNote('');
      await onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="stack booking-actions">
      <ErrorMessage error={error} />
      <TextArea
        label="Note (optional)"
        rows={2}
        value={note}
        onValue={setNote}
        hint="Kept in the status history; the customer sees it."
      />
      {confirming ? (
        <fieldset class="confirm">
          <legend>{CONFIRMATIONS[confirming].question}</legend>
          <div class="row">
            <button type="button" class="button danger" disabled={busy} onClick={() => run(confirming)}>
              {CONFIRMATIONS[confirming].yes}
            </button>
            <button type="button" class="button" disabled={busy} onClick={() => setConfirming(null)}>
              {CONFIRMATIONS[confirming].no}
            </button>
          </div>
        </fieldset>
      ) : (
        <div class="row">
          {canApprove && (
            <button type="button" class="button primary" disabled={busy} onClick={() => run('approve')}>
              Approve
            </button>
          )}
          {canDecline && (
            <button
              type="button"
              class="button danger"
              disabled={busy}
              onClick={() => setConfirming('decline')}
            >
              Decline
            </button>
          )}
          {mayCancel && (
            <button
              type="button"
              class="button danger"
              disabled={busy}
              onClick={() => setConfirming('cancel')}
            >
              Cancel booking
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function BookingCard({
  booking,
  timeZone,
  onChange,
  detailed,
}: {
  booking: Booking;
  timeZone: string;
  onChange: () => Promise<void>;
  detailed?: boolean;
}) {
  const headingId = useId();
  const due = deadline(booking, timeZone);
  // a channel's booking shows its contact, labelled with the channel (decisions §24)
  const { name, email, phone, via } = bookedFor(booking);
  return (
    <article class="card booking" aria-labelledby={headingId}>
      <h2 id={headingId} class="booking-title">
        {detailed ? (
          booking.listing_title
        ) : (
          <a href={`/vendor/bookings/${booking.id}`}>{booking.listing_title}</a>
        )}{' '}
        <StatusBadge status={booking.status} />
        {via && <span class="channel-label">Via {via}</span>}
      </h2>
      <dl class="booking-facts">
        <dt>Booking</dt>
        <dd>#{booking.id}</dd>
        <dt>When</dt>
        <dd>
          {dateTime(booking.starts_at, timeZone)} to {dateTime(booking.ends_at, timeZone)}
        </dd>
        <dt>Booked</dt>
        <dd>{amountBooked(booking)}</dd>
        <dt>Price</dt>
        <dd>
          <PriceLines
            lines={booking.price_lines}
            total={booking.total_price}
            currency={booking.currency}
            label={`Price of booking #${booking.id}`}
          />
          {booking.promo_code && <span class="muted">Promo code {booking.promo_code}</span>}
        </dd>
        <dt>{via ? 'Contact' : 'Customer'}</dt>
        <dd>
          {name}
          {email && (
            <>
              <br />
              <a href={`mailto:${email}`}>{email}</a>
            </>
          )}
          {phone && (
            <>
              <br />
              <a href={`tel:${phone}`}>{phone}</a>
            </>
          )}
        </dd>
        {via && (
          <>
            <dt>Channel</dt>
            <dd>
              {via}
              {booking.reseller_reference && (
                <span class="muted"> · reference {booking.reseller_reference}</span>
              )}
            </dd>
          </>
        )}
        {booking.customer_notes && (
          <>
            <dt>Customer's note</dt>
            <dd class="user-text">{booking.customer_notes}</dd>
          </>
        )}
        {booking.vendor_notes && (
          <>
            <dt>Your note</dt>
            <dd class="user-text">{booking.vendor_notes}</dd>
          </>
        )}
      </dl>
      <BookingAnswers answers={booking.answers} label={`Answers for booking #${booking.id}`} />
      {booking.waiver && <WaiverFacts waiver={booking.waiver} timeZone={timeZone} />}
      {due && <p class="booking-deadline">{due}</p>}
      <Actions booking={booking} onDone={onChange} />
      {detailed && (
        <>
          <h3>Status history</h3>
          <ol class="status-history">
            {booking.status_history.map((entry) => (
              <li key={entry.created_at + entry.to_status}>
                {dateTime(entry.created_at, timeZone)}: {statusWord(entry.to_status)}
                {entry.from_status ? ` (was ${statusWord(entry.from_status)})` : ''}
                {entry.note && <span class="user-text">: {entry.note}</span>}
              </li>
            ))}
          </ol>
        </>
      )}
    </article>
  );
}

function BookingDetail({ id, timeZone }: { id: number; timeZone: string }) {
  const booking = useLoad(
    () => call(() => api.GET('/api/v1/booking/bookings/{id}/', { params: { path: { id } } })),
    [id],
  );
  return (
    <Page title={`Booking #${id}`}>
      <p>
        <a href="/vendor/bookings">All bookings</a>
      </p>
      <ErrorMessage error={booking.error} />
      {booking.data ? (
        <BookingCard booking={booking.data} timeZone={timeZone} onChange={booking.reload} detailed />
      ) : (
        !booking.error && <Loading />
      )}
    </Page>
  );
}

function BookingList({ timeZone }: { timeZone: string }) {
  // the route's own query: the location's is already the next page's while that one loads
  const { query } = useRoute();
  const { route } = useLocation();
  const status = (query.status ?? '') as Status | '';
  const page = Math.max(1, Number(query.page) || 1);
  const bookings = useLoad(
    () =>
      call(() =>
        api.GET('/api/v1/booking/bookings/', {
          params: { query: { status: status || undefined, page, page_size: 20 } },
        }),
      ),
    [status, page],
  );
  const go = (next: { status?: string; page?: number }) => {
    const params = new URLSearchParams();
    const s = next.status ?? status;
    if (s) params.set('status', s);
    if (next.page && next.page > 1) params.set('page', String(next.page));
    const q = params.toString();
    route(`/vendor/bookings${q ? `?${q}` : ''}`);
  };
  const data = bookings.data;
  return (
    <Page title="Bookings">
      <div class="row">
        <Select label="State" value={status} onValue={(s) => go({ status: s })} options={STATUS_OPTIONS} />
      </div>
      <ErrorMessage error={bookings.error} />
      {!data ? (
        !bookings.error && <Loading />
      ) : data.results.length === 0 ? (
        <Notice>No bookings{status ? ` in the state ${statusWord(status)}` : ''}.</Notice>
      ) : (
        <>
          <p role="status">
            {data.count} {data.count === 1 ? 'booking' : 'bookings'}
          </p>
          <div class="stack">
            {data.results.map((b) => (
              <BookingCard key={b.id} booking={b} timeZone={timeZone} onChange={bookings.reload} />
            ))}
          </div>
          {(data.previous || data.next) && (
            <nav aria-label="Pages" class="row">
              {data.previous && (
                <button type="button" class="button" onClick={() => go({ page: page - 1 })}>
                  Previous page
                </button>
              )}
              {data.next && (
                <button type="button" class="button" onClick={() => go({ page: page + 1 })}>
                  Next page
                </button>
              )}
            </nav>
          )}
        </>
      )}
    </Page>
  );
}

export function BookingsPage() {
  const { params } = useRoute();
  const { user } = useSession();
  const timeZone = user?.vendor_profile?.time_zone ?? 'UTC';
  return params.id ? (
    <BookingDetail id={Number(params.id)} timeZone={timeZone} />
  ) : (
    <BookingList timeZone={timeZone} />
  );
}
