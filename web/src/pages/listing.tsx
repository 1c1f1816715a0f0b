import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { Schemas } from '../api.ts';
import { AvailabilityView, useSlots } from '../components/availability.tsx';
import { type Booking, BookingForm } from '../components/booking-form.tsx';
import {
  DepartureTable,
  ScheduledBooking,
  type Upcoming,
  useUpcomingDepartures,
} from '../components/departures.tsx';
import {
  fetchListing,
  isEquipment,
  isScheduled,
  KIND_SEGMENT,
  type Listing,
  type ListingKind,
  placeOf,
  policyWords,
  priceLabel,
  queryString,
  rememberClick,
  rememberedClick,
  trackingOf,
} from '../components/listing.ts';
import { PhotoGallery } from '../components/listing-card.tsx';
import { dateTime, money, statusWord } from '../format.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Loading, Notice, Page } from '../ui.tsx';

type Slot = Schemas['Slot'];

/**
 * A listing's page, on the site (`/equipment/{id}`, `/adventures/{id}`) or inside the embed (`base`
 * '/embed/{slug}', where links stay in the frame and logging in opens the site in a new tab).
 */
export function ListingPage({ base = '' }: { base?: string }) {
  // the route's own path and query (inside the embed's router, the part after /embed/{slug}): while the
  // next page loads, this one is still shown under them, never under the next page's location
  const { params, path, query } = useRoute();
  const publicId = params.public_id ?? '';
  const kind: ListingKind = path.startsWith('/equipment/') ? 'equipment' : 'adventure';
  const [listing, setListing] = useState<Listing | undefined>(undefined);
  const [clickId, setClickId] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const tracking = trackingOf(query);
  // a scheduled offering runs at its departures, not in slots (decisions §19)
  const scheduled = listing && isScheduled(listing) ? listing : undefined;
  const slots = useSlots(scheduled ? undefined : listing);
  const upcoming = useUpcomingDepartures(scheduled);

  useEffect(() => {
    setListing(undefined);
    setError(null);
    // The page's campaign parameters and where the visitor came from go to the detail view, which records
    // the click (decisions §18); `referrer` wins over the Referer header, which would name this page.
    fetchListing(kind, publicId, { ...tracking, referrer: document.referrer }).then((detail) => {
      setListing(detail);
      // an organic view (say, back from logging in) never displaces the campaign click this tab arrived by
      const kept = rememberedClick(kind, publicId);
      const click = detail.click_traffic_type === 'organic' && kept ? kept : detail.marketing_click_id;
      rememberClick(kind, publicId, click);
      setClickId(click);
    }, setError);
  }, [kind, publicId]);

  if (error) return <Page title="Listing">{<ErrorMessage error={error} />}</Page>;
  if (!listing) return <Loading what="Loading the listing" />;
  const vendorHref = base ? `${base}/` : `/v/${encodeURIComponent(listing.vendor.slug)}`;
  // the site's own page of this listing, with the campaign kept for attribution after a log-in
  const sitePath = `/${KIND_SEGMENT[kind]}/${encodeURIComponent(publicId)}${queryString(tracking)}`;
  return (
    <Page title={listing.title}>
      <p class="muted">
        {listing.category.name} by <a href={vendorHref}>{listing.vendor.business_name}</a>
      </p>
      {/* reading order (and a phone's): the listing, booking, then the weeks of availability; on a wide
          screen the booking panel stands beside both */}
      <div class="listing-layout">
        <div class="stack listing-about">
          <PhotoGallery listing={listing} />
          <p class="description">{listing.description}</p>
          <ListingFacts listing={listing} />
        </div>
        <section class="card booking-panel" aria-labelledby="book-title">
          <h2 id="book-title">Book</h2>
          <BookingPanel
            listing={listing}
            slots={slots.slots}
            upcoming={upcoming}
            clickId={clickId}
            sitePath={sitePath}
            inFrame={base !== ''}
          />
        </section>
        <section class="listing-availability" aria-labelledby="availability-title">
          <h2 id="availability-title">Availability</h2>
          {scheduled ? (
            <ListingDepartures upcoming={upcoming} />
          ) : (
            <ListingAvailability listing={listing} slots={slots} />
          )}
        </section>
      </div>
    </Page>
  );
}

function ListingFacts({ listing }: { listing: Listing }) {
  return (
    <dl class="facts">
      <dt>Price</dt>
      <dd>{priceLabel(listing)}</dd>
      {placeOf(listing) && (
        <>
          <dt>{isEquipment(listing) ? 'Location' : 'Meeting point'}</dt>
          <dd>{placeOf(listing)}</dd>
        </>
      )}
      {isEquipment(listing) ? (
        <>
          <dt>Units</dt>
          <dd>{listing.quantity}</dd>
        </>
      ) : (
        <>
          <dt>Duration</dt>
          <dd>{listing.duration_minutes} minutes</dd>
          <dt>Group</dt>
          <dd>
            {listing.booking_mode === 'shared'
              ? `Shared, up to ${listing.capacity} people`
              : `Private, up to ${listing.capacity} people`}
          </dd>
        </>
      )}
      <dt>Cancellation policy</dt>
      <dd>{policyWords(listing.cancellation_policy)}</dd>
    </dl>
  );
}

function ListingAvailability({
  listing,
  slots: { slots, error },
}: {
  listing: Listing;
  slots: ReturnType<typeof useSlots>;
}) {
  if (error) return <ErrorMessage error={error} />;
  if (!slots) return <Loading what="Checking availability" />;
  return <AvailabilityView listing={listing} slots={slots} />;
}

function ListingDepartures({ upcoming: { list, next, error } }: { upcoming: Upcoming }) {
  if (error) return <ErrorMessage error={error} />;
  if (!list || next === undefined) return <Loading what="Finding departures" />;
  return <DepartureTable list={list} next={next} />;
}

function BookingPanel({
  listing,
  slots,
  upcoming,
  clickId,
  sitePath,
  inFrame,
}: {
  listing: Listing;
  slots: Slot[] | undefined;
  upcoming: Upcoming;
  clickId: number | null;
  sitePath: string;
  inFrame: boolean;
}) {
  const { user } = useSession();
  const [booked, setBooked] = useState<Booking | null>(null);
  // a frame of another site never sends the session cookie (SameSite=Strict): the site opens in a new tab
  const away = inFrame ? { target: '_blank', rel: 'noopener' } : {};

  if (booked)
    return (
      <div class="stack">
        <Notice>
          Booking requested for{' '}
          <strong data-booked-start>{dateTime(booked.starts_at, booked.vendor.time_zone)}</strong>:{' '}
          <strong>{statusWord(booked.status)}</strong>, total{' '}
          <strong data-booked-total>{money(booked.total_price, booked.currency)}</strong>.
          {booked.expires_at &&
            ` The vendor answers by ${dateTime(booked.expires_at, booked.vendor.time_zone)}.`}
        </Notice>
        <a href="/bookings" {...away}>
          See your bookings
        </a>
      </div>
    );
  if (user === undefined) return <Loading />;
  if (user === null)
    return (
      <p>
        <a href={`/login?next=${encodeURIComponent(sitePath)}`} {...away}>
          Log in to book
        </a>
        {inFrame ? ' (opens Waterbook in a new tab).' : ' and see the total as you choose dates.'}
      </p>
    );
  if (!user.is_customer) return <p>Vendor accounts cannot book: log in with a customer account to book.</p>;
  if (isScheduled(listing))
    return upcoming.list && upcoming.next !== undefined ? (
      <ScheduledBooking
        listing={listing}
        list={upcoming.list}
        next={upcoming.next}
        clickId={clickId}
        onBooked={setBooked}
      />
    ) : upcoming.error ? null /* the availability section says what went wrong */ : (
      <Loading />
    );
  if (!slots) return <Loading />;
  return <BookingForm listing={listing} slots={slots} clickId={clickId} onBooked={setBooked} />;
}
