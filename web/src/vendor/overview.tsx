// The dashboard's first page: what needs an answer now, what comes next, and the last 30 days at a glance.
import { bookedForLine } from '../../../src/lib/booked-for.ts';
import { api, call } from '../api.ts';
import { dateTime, money } from '../format.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Loading, Notice, Page } from '../ui.tsx';
import { deadline, StatusBadge } from './bookings.tsx';
import { useLoad } from './data.ts';
import { lastDays } from './range.ts';

/** Requests are few and short-lived (they expire): the newest hundred are all there are. */
const waitingRequests = () =>
  call(() =>
    api.GET('/api/v1/booking/bookings/', { params: { query: { status: 'requested', page_size: 100 } } }),
  );

/** How many upcoming bookings the overview lists. */
const UPCOMING = 10;

/** Approved and confirmed bookings that have not started, soonest first: the first page of each, merged. */
async function upcomingBookings() {
  const startsFrom = new Date().toISOString();
  const pages = await Promise.all(
    (['confirmed', 'approved'] as const).map((status) =>
      call(() =>
        api.GET('/api/v1/booking/bookings/', {
          params: { query: { status, starts_from: startsFrom, ordering: 'starts_at', page_size: UPCOMING } },
        }),
      ),
    ),
  );
  return pages
    .flatMap((page) => page.results)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at))
    .slice(0, UPCOMING);
}

function LastThirtyDays({ currency }: { currency: string }) {
  const summary = useLoad(() => {
    const { from, to } = lastDays(30);
    return Promise.all([
      call(() => api.GET('/api/v1/marketing/vendor/summary/', { params: { query: { from, to } } })),
      call(() => api.GET('/api/v1/marketing/vendor/timeseries/', { params: { query: { from, to } } })),
    ]);
  }, []);
  if (summary.error) return <ErrorMessage error={summary.error} />;
  if (!summary.data) return <Loading />;
  const [totals, series] = summary.data;
  const bookings = totals.bookings_attributed;
  // revenue per local day, summed in cents: amounts are decimal strings, never floats added up
  const revenueCents = series.points.reduce((sum, p) => sum + Math.round(Number(p.revenue) * 100), 0);
  return (
    <dl class="stats">
      <div>
        <dt>Clicks</dt>
        <dd>{totals.clicks.total}</dd>
        <dd class="hint">
          {totals.clicks.organic} organic, {totals.clicks.marketing} from campaigns
        </dd>
      </div>
      <div>
        <dt>Bookings</dt>
        <dd>{bookings.organic + bookings.marketing + bookings.unattributed}</dd>
      </div>
      <div>
        <dt>Revenue</dt>
        <dd>{money((revenueCents / 100).toFixed(2), currency)}</dd>
      </div>
    </dl>
  );
}

export function OverviewPage() {
  const { user } = useSession();
  const profile = user?.vendor_profile;
  const timeZone = profile?.time_zone ?? 'UTC';
  const requests = useLoad(waitingRequests, []);
  const upcoming = useLoad(upcomingBookings, []);
  return (
    <Page title="Overview">
      <section aria-labelledby="waiting-title">
        <h2 id="waiting-title">Requests waiting</h2>
        <ErrorMessage error={requests.error} />
        {!requests.data ? (
          !requests.error && <Loading />
        ) : requests.data.results.length === 0 ? (
          <Notice>No requests are waiting for an answer.</Notice>
        ) : (
          <ul class="stack plain-list">
            {requests.data.results.map((b) => (
              <li key={b.id} class="card">
                <a href={`/vendor/bookings/${b.id}`}>{b.listing_title}</a> · {dateTime(b.starts_at, timeZone)}{' '}
                · {money(b.total_price, b.currency)}
                <br />
                <strong>{deadline(b, timeZone)}</strong>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="upcoming-title">
        <h2 id="upcoming-title">Upcoming bookings</h2>
        <ErrorMessage error={upcoming.error} />
        {!upcoming.data ? (
          !upcoming.error && <Loading />
        ) : upcoming.data.length === 0 ? (
          <Notice>No upcoming bookings.</Notice>
        ) : (
          <ul class="stack plain-list">
            {upcoming.data.map((b) => (
              <li key={b.id} class="card">
                <a href={`/vendor/bookings/${b.id}`}>{b.listing_title}</a> · {dateTime(b.starts_at, timeZone)}{' '}
                · {bookedForLine(b)} <StatusBadge status={b.status} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title">Last 30 days</h2>
        <LastThirtyDays currency={profile?.currency ?? 'usd'} />
        <p>
          <a href="/vendor/analytics">See analytics</a>
        </p>
      </section>
    </Page>
  );
}
