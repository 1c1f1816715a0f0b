import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, call, type Schemas } from '../api.ts';
import { type Listing, type ListingKind, queryString, searchListings } from '../components/listing.ts';
import { ListingCard } from '../components/listing-card.tsx';
import { ErrorMessage, Field, Loading, Page, Select } from '../ui.tsx';

const PAGE_SIZE = 12;

/** The filters as the URL carries them, so a search can be shared and the back button works. */
interface Filters {
  kind: string;
  search: string;
  category: string;
  location: string;
  min_price: string;
  max_price: string;
  from: string;
  to: string;
}

const FILTER_NAMES: (keyof Filters)[] = [
  'kind',
  'search',
  'category',
  'location',
  'min_price',
  'max_price',
  'from',
  'to',
];

const filtersOf = (query: Record<string, string>): Filters =>
  Object.fromEntries(FILTER_NAMES.map((name) => [name, query[name] ?? ''])) as unknown as Filters;

/** A date field's day (browser's time zone) as the moment it begins, or ends when `end`. */
function dayBoundary(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const moment = new Date(`${day}T00:00`);
  if (end) moment.setDate(moment.getDate() + 1);
  return moment.toISOString();
}

export function HomePage() {
  const { route } = useLocation();
  // the route's query, not the location's: while a listing page loads, this page stays as it was
  const { query } = useRoute();
  const applied = filtersOf(query);
  const kind: ListingKind = applied.kind === 'adventures' ? 'adventure' : 'equipment';
  const page = Math.max(1, Number(query.page) || 1);
  const [form, setForm] = useState<Filters>(applied);
  const [categories, setCategories] = useState<Schemas['Category'][]>([]);
  const [results, setResults] = useState<{ count: number; results: Listing[] } | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const key = JSON.stringify([applied, page]);

  useEffect(() => {
    call(() => api.GET('/api/v1/categories/', { params: { query: { page_size: 100 } } })).then(
      (list) => setCategories(list.results),
      () => setCategories([]),
    );
  }, []);

  useEffect(() => {
    setForm(applied);
    setResults(undefined);
    setError(null);
    // both dates or neither: the API wants a whole window
    const window =
      applied.from && applied.to
        ? { available_from: dayBoundary(applied.from, false), available_to: dayBoundary(applied.to, true) }
        : {};
    searchListings(kind, {
      search: applied.search || undefined,
      category: applied.category || undefined,
      location: applied.location || undefined,
      min_price: applied.min_price || undefined,
      max_price: applied.max_price || undefined,
      ...window,
      page,
      page_size: PAGE_SIZE,
    }).then(setResults, setError);
  }, [key]);

  const set = (name: keyof Filters) => (value: string) => setForm({ ...form, [name]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    route(`/${queryString({ ...form })}`);
  };
  const pageHref = (n: number) => `/${queryString({ ...applied, page: n > 1 ? String(n) : undefined })}`;
  const pages = results ? Math.max(1, Math.ceil(results.count / PAGE_SIZE)) : 1;

  return (
    <Page title="Find your next day on the water">
      <form class="filters card" onSubmit={submit} aria-label="Search listings">
        <div class="row">
          <Select
            label="What"
            value={form.kind || 'equipment'}
            onValue={set('kind')}
            options={[
              ['equipment', 'Equipment to rent'],
              ['adventures', 'Adventures'],
            ]}
          />
          <Field label="Search" type="search" value={form.search} onValue={set('search')} />
          <Select
            label="Category"
            value={form.category}
            onValue={set('category')}
            options={[['', 'Any category'], ...categories.map((c) => [c.slug, c.name] as const)]}
          />
          <Field label="Location" value={form.location} onValue={set('location')} />
        </div>
        <div class="row">
          <Field
            label="Lowest price"
            type="number"
            min={0}
            step="0.01"
            value={form.min_price}
            onValue={set('min_price')}
          />
          <Field
            label="Highest price"
            type="number"
            min={0}
            step="0.01"
            value={form.max_price}
            onValue={set('max_price')}
          />
          <Field label="Free from" type="date" value={form.from} onValue={set('from')} />
          <Field label="Free until" type="date" value={form.to} onValue={set('to')} />
          <button type="submit" class="button primary">
            Search
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {!results && !error && <Loading what="Finding listings" />}
      {results && (
        <section aria-labelledby="results-title" class="stack">
          <h2 id="results-title" aria-live="polite">
            {results.count === 1 ? '1 result' : `${results.count} results`}
          </h2>
          <div class="grid">
            {results.results.map((listing) => (
              <ListingCard key={listing.public_id} listing={listing} />
            ))}
          </div>
          {pages > 1 && (
            <nav aria-label="Pages" class="pager">
              {page > 1 && <a href={pageHref(page - 1)}>Previous page</a>}
              <span>
                Page {page} of {pages}
              </span>
              {page < pages && <a href={pageHref(page + 1)}>Next page</a>}
            </nav>
          )}
        </section>
      )}
    </Page>
  );
}
