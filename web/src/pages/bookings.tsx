import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { BookingAnswers } from '../components/booking-answers.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { PriceLines } from '../components/price-lines.tsx';
import { dateTime, money, statusWord } from '../format.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Loading, Notice, Page } from '../ui.tsx';

type Booking = Schemas['Booking'];
type Preview = Schemas['CancellationPreview'];
type Intent = Schemas['PaymentIntent'];

/** States a customer may still cancel from (the API decides; the preview says why not). */
const CANCELLABLE: Booking['status'][] = ['requested', 'approved', 'confirmed'];

/** The deadline the booking is waiting on, in words, in the vendor's time zone. */
function deadline(booking: Booking): string | null {
  if (!booking.expires_at) return null;
  const when = dateTime(booking.expires_at, booking.vendor.time_zone);
  if (booking.status === 'approved') return `Pay before ${when}.`;
  if (booking.status === 'requested') return `Waiting for the vendor until ${when}.`;
  return null;
}

export function MyBookingsPage() {
  const { user } = useSession();
  const [bookings, setBookings] = useState<Booking[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);

  const load = () =>
    call(() => api.GET('/api/v1/booking/bookings/', { params: { query: { page_size: 100 } } })).then(
      (page) => setBookings(page.results),
      setError,
    );
  useEffect(() => {
    if (user) load();
  }, [user?.id]);

  if (user === undefined) return <Loading />;
  if (user === null)
    return (
      <Page title="My bookings">
        <p>
          <a href="/login?next=%2Fbookings">Log in</a> to see your bookings.
        </p>
      </Page>
    );
  const changed = (text: string) => {
    setMessage(text);
    return load();
  };
  return (
    <Page title="My bookings">
      <ErrorMessage error={error} />
      {message && <Notice>{message}</Notice>}
      {!bookings && !error && <Loading what="Loading your bookings" />}
      {bookings?.length === 0 && (
        <p>
          No bookings yet. <a href="/">Browse listings</a>
        </p>
      )}
      <ul class="booking-list">
        {bookings?.map((booking) => (
          <li key={booking.id}>
            <BookingCard booking={booking} onChanged={changed} />
          </li>
        ))}
      </ul>
    </Page>
  );
}

function BookingCard({ booking, onChanged }: { booking: Booking; onChanged: (message: string) => void }) {
  const zone = booking.vendor.time_zone;
  const headingId = `booking-${booking.id}`;
  const [paying, setPaying] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const due = deadline(booking);
  return (
    <article class="card stack" aria-labelledby={headingId}>
      <div class="booking-head">
        <h2 id={headingId}>{booking.listing_title}</h2>
        <span class={`status status-${booking.status}`}>{statusWord(booking.status)}</span>
      </div>
      <p class="muted">
        by <a href={`/v/${encodeURIComponent(booking.vendor_slug)}`}>{booking.vendor.business_name}</a>
      </p>
      <dl class="facts">
        <dt>From</dt>
        <dd>{dateTime(booking.starts_at, zone)}</dd>
        <dt>Until</dt>
        <dd>{dateTime(booking.ends_at, zone)}</dd>
        {booking.quantity !== null && (
          <>
            <dt>Units</dt>
            <dd>{booking.quantity}</dd>
          </>
        )}
        {booking.participants_count !== null && (
          <>
            <dt>Participants</dt>
            <dd>{booking.participants_count}</dd>
          </>
        )}
        <dt>Price</dt>
        <dd>
          <PriceLines
            lines={booking.price_lines}
            total={booking.total_price}
            currency={booking.currency}
            label={`Price of booking #${booking.id}`}
          />
        </dd>
      </dl>
      <BookingAnswers answers={booking.answers} label={`Your answers for booking #${booking.id}`} />
      {booking.waiver && (
        <p>
          Waiver accepted by {booking.waiver.name} on {dateTime(booking.waiver.accepted_at, zone)}.
        </p>
      )}
      {due && <p class="deadline">{due}</p>}
      {booking.vendor_notes && <p>Vendor’s note: {booking.vendor_notes}</p>}
      <details>
        <summary>Status history</summary>
        <ol class="history">
          {booking.status_history.map((entry) => (
            <li key={entry.created_at + entry.to_status}>
              {dateTime(entry.created_at, zone)}: {statusWord(entry.to_status)}
              {entry.note && ` (${entry.note})`}
            </li>
          ))}
        </ol>
      </details>
      <div class="row">
        {booking.status === 'approved' && !paying && (
          <button type="button" class="button primary" onClick={() => setPaying(true)}>
            Pay
          </button>
        )}
        {CANCELLABLE.includes(booking.status) && (
          <button type="button" class="button danger" onClick={() => setCancelling(true)}>
            Cancel booking
          </button>
        )}
      </div>
      {paying && (
        <Checkout
          booking={booking}
          onDone={(text) => {
            setPaying(false);
            onChanged(text);
          }}
          onClose={() => setPaying(false)}
        />
      )}
      {cancelling && (
        <CancelDialog
          booking={booking}
          onDone={(text) => {
            setCancelling(false);
            onChanged(text);
          }}
          onClose={() => setCancelling(false)}
        />
      )}
    </article>
  );
}

/**
 * Paying an approved booking: the payment intent, then the mock gateway's checkout (the API plays the
 * gateway in development, MOCK_CHECKOUT), after which the booking reads Confirmed.
 */
function Checkout({
  booking,
  onDone,
  onClose,
}: {
  booking: Booking;
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const [intent, setIntent] = useState<Intent | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call(() => api.POST('/api/v1/payment/intents/', { body: { booking_id: booking.id } })).then(
      setIntent,
      setError,
    );
  }, [booking.id]);

  const pay = async (outcome: 'succeeded' | 'failed') => {
    if (!intent) return;
    setBusy(true);
    setError(null);
    try {
      const payment = await call(() =>
        api.POST('/api/v1/payment/{payment_id}/mock-checkout/', {
          params: { path: { payment_id: intent.payment.id } },
          body: { outcome },
        }),
      );
      // a declined card leaves the booking approved: Pay again opens a new intent
      onDone(
        payment.status === 'failed'
          ? 'The card was declined. The booking is still waiting for payment: try Pay again.'
          : `Paid ${money(payment.amount, payment.currency)}. Your booking is confirmed.`,
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="checkout stack" aria-label="Checkout">
      <h3>Checkout</h3>
      <ErrorMessage error={error} />
      {!intent && !error && <Loading what="Preparing the payment" />}
      {intent && (
        <>
          <p>
            Amount: <strong>{money(intent.payment.amount, intent.payment.currency)}</strong>
          </p>
          {!intent.mocked && (
            <p>Online card payment is not available yet: the vendor will tell you how to pay.</p>
          )}
          {intent.mocked && (
            <p class="muted">Test payments: no card is charged. Choose how the payment should go.</p>
          )}
          <div class="row">
            {intent.mocked && (
              <>
                <button type="button" class="button primary" disabled={busy} onClick={() => pay('succeeded')}>
                  Pay now
                </button>
                <button type="button" class="button" disabled={busy} onClick={() => pay('failed')}>
                  Simulate a declined card
                </button>
              </>
            )}
            <button type="button" class="link-button" onClick={onClose}>
              Close checkout
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** The refund the cancellation policy gives now, shown before the customer confirms the cancel. */
function CancelDialog({
  booking,
  onDone,
  onClose,
}: {
  booking: Booking;
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call(() =>
      api.GET('/api/v1/booking/bookings/{id}/cancellation/', { params: { path: { id: booking.id } } }),
    ).then(setPreview, setError);
  }, [booking.id]);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const cancelled = await call(() =>
        api.POST('/api/v1/booking/bookings/{id}/cancel/', { params: { path: { id: booking.id } }, body: {} }),
      );
      onDone(
        cancelled.refund
          ? `Booking cancelled. ${money(cancelled.refund.amount, cancelled.refund.currency)} is refunded.`
          : 'Booking cancelled.',
      );
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      title="Cancel this booking?"
      confirmText="Confirm cancellation"
      cancelText="Keep booking"
      busy={busy || !preview?.can_cancel}
      onConfirm={confirm}
      onClose={onClose}
    >
      <ErrorMessage error={error} />
      {!preview && !error && <Loading what="Working out the refund" />}
      {preview && (
        <div class="stack">
          <p>
            {preview.can_cancel ? (
              <>
                Refund: <strong data-refund>{money(preview.refund_amount, preview.currency)}</strong>
                {Number(preview.paid_amount) > 0 &&
                  ` of the ${money(preview.paid_amount, preview.currency)} paid`}
                .
              </>
            ) : (
              'This booking cannot be cancelled.'
            )}
          </p>
          <p class="muted">{preview.reason}</p>
        </div>
      )}
    </ConfirmDialog>
  );
}
