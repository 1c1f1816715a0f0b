// The vendor's listings of both kinds: a list with archive, the create and edit pages with the listing
// form, then an edited listing's photos, its availability slots and, for an adventure, its schedule and
// departures (decisions §19).
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { money } from '../format.ts';
import { ErrorMessage, Loading, Notice, Page, TableScroll } from '../ui.tsx';
import {
  type Adventure,
  type Equipment,
  isKind,
  KIND_NAMES,
  type Kind,
  type Listing,
  listingsApi,
  publicPath,
  useLoad,
} from './data.ts';
import { DepartureList } from './departures.tsx';
import { ListingForm } from './listing-form.tsx';
import { ResourceUsesEditor } from './listing-resources.tsx';
import { Photos } from './photos.tsx';
import { PriceSettingsEditor } from './price-settings.tsx';
import { QuestionsEditor } from './questions-editor.tsx';
import { ScheduleEditor } from './schedule.tsx';
import { SlotCalendar } from './slots.tsx';

interface Row {
  kind: Kind;
  listing: Listing;
}

const price = (row: Row) =>
  row.kind === 'equipment'
    ? `${money((row.listing as Equipment).price_per_day, row.listing.currency)} a day`
    : `${money((row.listing as Adventure).price_per_person, row.listing.currency)} a person`;

function ArchiveButton({ row, onDone }: { row: Row; onDone: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const archive = async () => {
    try {
      await listingsApi.archive(row.kind, row.listing.id);
      await onDone();
    } catch (e) {
      setError(e);
    }
  };
  if (!confirming)
    return (
      <button
        type="button"
        class="button danger"
        onClick={() => setConfirming(true)}
        aria-label={`Archive ${row.listing.title}`}
      >
        Archive
      </button>
    );
  return (
    <fieldset class="confirm">
      <legend>Archive {row.listing.title}? It leaves your storefront and search; its bookings stay.</legend>
      <ErrorMessage error={error} />
      <div class="row">
        <button type="button" class="button danger" onClick={archive}>
          Yes, archive
        </button>
        <button type="button" class="button" onClick={() => setConfirming(false)}>
          Keep it
        </button>
      </div>
    </fieldset>
  );
}

export function ListingsPage() {
  const listings = useLoad(async () => {
    const [equipment, adventures] = await Promise.all([
      listingsApi.list.equipment(),
      listingsApi.list.adventure(),
    ]);
    return [
      ...equipment.results.map((listing): Row => ({ kind: 'equipment', listing })),
      ...adventures.results.map((listing): Row => ({ kind: 'adventure', listing })),
    ];
  }, []);
  return (
    <Page title="Listings">
      <div class="row">
        <a class="button primary" href="/vendor/listings/new/equipment">
          New equipment
        </a>
        <a class="button primary" href="/vendor/listings/new/adventure">
          New adventure
        </a>
      </div>
      <ErrorMessage error={listings.error} />
      {!listings.data ? (
        !listings.error && <Loading />
      ) : listings.data.length === 0 ? (
        <Notice>No listings yet: create your first one.</Notice>
      ) : (
        <TableScroll label="Your listings">
          <table>
            <caption class="visually-hidden">Your listings</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Kind</th>
                <th scope="col">Price</th>
                <th scope="col">Shown</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {listings.data.map((row) => (
                <tr key={`${row.kind}-${row.listing.id}`}>
                  <th scope="row">
                    <a href={`/vendor/listings/${row.kind}/${row.listing.id}`}>{row.listing.title}</a>
                  </th>
                  <td>{KIND_NAMES[row.kind]}</td>
                  <td>{price(row)}</td>
                  <td>
                    {row.listing.is_active ? (
                      <a href={publicPath(row.kind, row.listing.public_id)}>Public page</a>
                    ) : (
                      'Hidden'
                    )}
                  </td>
                  <td>
                    <ArchiveButton row={row} onDone={listings.reload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Page>
  );
}

export function NewListingPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const kind = params.kind;
  if (!isKind(kind))
    return (
      <Page title="Unknown kind of listing">
        <a href="/vendor/listings">Back to listings</a>
      </Page>
    );
  return (
    <Page title={`New ${KIND_NAMES[kind].toLowerCase()}`}>
      <ListingForm kind={kind} onSaved={(saved) => route(`/vendor/listings/${kind}/${saved.id}`)} />
    </Page>
  );
}

export function ListingEditPage() {
  const { params } = useRoute();
  const kind = isKind(params.kind) ? params.kind : null;
  const id = Number(params.id);
  const listing = useLoad<Listing | null>(
    () =>
      kind === 'equipment'
        ? listingsApi.getEquipment(id)
        : kind === 'adventure'
          ? listingsApi.getAdventure(id)
          : Promise.resolve(null),
    [kind, id],
  );
  if (!kind || listing.data === null)
    return (
      <Page title="Listing not found">
        <a href="/vendor/listings">Back to listings</a>
      </Page>
    );
  if (!listing.data)
    return (
      <Page title="Listing">
        <ErrorMessage error={listing.error} />
        {!listing.error && <Loading />}
      </Page>
    );
  const current = listing.data;
  return (
    <Page title={current.title}>
      <p>
        {KIND_NAMES[kind]} ·{' '}
        {current.is_active ? (
          <a href={publicPath(kind, current.public_id)}>Public page</a>
        ) : (
          'Hidden from customers'
        )}
      </p>
      <h2>Details</h2>
      <ListingForm kind={kind} listing={current} onSaved={() => listing.reload()} />
      <PriceSettingsEditor kind={kind} listing={current} onSaved={listing.reload} />
      <QuestionsEditor kind={kind} listing={current} onSaved={listing.reload} />
      <ResourceUsesEditor kind={kind} listing={current} onSaved={listing.reload} />
      <Photos kind={kind} listingId={current.id} photos={current.photos} onChange={listing.reload} />
      {kind === 'adventure' && (
        <>
          <ScheduleEditor offering={current as Adventure} onSaved={listing.reload} />
          {/* a saved change (schedule, capacity, cutoff) remounts the list, which loads it again */}
          <DepartureList key={current.updated_at} offering={current as Adventure} />
        </>
      )}
      <SlotCalendar kind={kind} listingId={current.id} />
    </Page>
  );
}
