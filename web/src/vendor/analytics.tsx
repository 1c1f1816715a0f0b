// Analytics: clicks over time (organic against marketing) as a chart with a table beside it, and the
// campaigns with their conversion (decisions §8, §17), over a chosen range of days.
import { useState } from 'preact/hooks';
import { api, call } from '../api.ts';
import { money } from '../format.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Field, Loading, Notice, Page, TableScroll } from '../ui.tsx';
import { ClicksChart } from './chart.tsx';
import { useLoad } from './data.ts';
import { dateRange, lastDaysDates } from './range.ts';

const PRESETS = [7, 30, 90] as const;

const percent = (rate: number | null) =>
  rate === null
    ? 'n/a'
    : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(rate);

const shortDate = (date: string) =>
  new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

export function AnalyticsPage() {
  const { user } = useSession();
  const currency = user?.vendor_profile?.currency ?? 'usd';
  const [range, setRange] = useState(() => lastDaysDates(30));
  const [draft, setDraft] = useState(range);
  const data = useLoad(() => {
    const query = dateRange(range.first, range.last);
    return Promise.all([
      call(() => api.GET('/api/v1/marketing/vendor/summary/', { params: { query } })),
      call(() => api.GET('/api/v1/marketing/vendor/timeseries/', { params: { query } })),
    ]);
  }, [range.first, range.last]);

  const choose = (next: { first: string; last: string }) => {
    setDraft(next);
    setRange(next);
  };
  const apply = (event: Event) => {
    event.preventDefault();
    setRange(draft);
  };
  const [summary, series] = data.data ?? [];

  return (
    <Page title="Analytics">
      <form class="row range-picker" onSubmit={apply} aria-label="Date range">
        <Field
          label="From"
          type="date"
          required
          value={draft.first}
          max={draft.last}
          onValue={(first) => setDraft({ ...draft, first })}
        />
        <Field
          label="To"
          type="date"
          required
          value={draft.last}
          min={draft.first}
          onValue={(last) => setDraft({ ...draft, last })}
        />
        <button type="submit" class="button primary">
          Show
        </button>
        {PRESETS.map((days) => (
          <button key={days} type="button" class="button" onClick={() => choose(lastDaysDates(days))}>
            Last {days} days
          </button>
        ))}
      </form>
      <ErrorMessage error={data.error} />
      {!summary || !series ? (
        !data.error && <Loading />
      ) : (
        <>
          <section aria-labelledby="totals-title">
            <h2 id="totals-title">Totals</h2>
            <dl class="stats">
              <div>
                <dt>Clicks</dt>
                <dd>{summary.clicks.total}</dd>
                <dd class="hint">
                  {summary.clicks.organic} organic, {summary.clicks.marketing} marketing
                </dd>
              </div>
              <div>
                <dt>Bookings</dt>
                <dd>
                  {summary.bookings_attributed.organic +
                    summary.bookings_attributed.marketing +
                    summary.bookings_attributed.unattributed}
                </dd>
              </div>
              <div>
                <dt>Conversion</dt>
                <dd>{percent(summary.conversion_rate_click_to_booking.marketing)} marketing</dd>
                <dd class="hint">{percent(summary.conversion_rate_click_to_booking.organic)} organic</dd>
              </div>
            </dl>
          </section>
          <section aria-labelledby="clicks-title">
            <h2 id="clicks-title">Clicks over time</h2>
            <ClicksChart
              label={`Chart of clicks per day from ${range.first} to ${range.last}, organic and marketing; the table below lists the same numbers.`}
              points={series.points.map((p) => ({ date: p.date, ...p.clicks }))}
            />
            <details>
              <summary>Clicks, bookings and revenue per day as a table</summary>
              <TableScroll label="Clicks, bookings and revenue per day">
                <table>
                  <caption class="visually-hidden">Per day</caption>
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Organic clicks</th>
                      <th scope="col">Marketing clicks</th>
                      <th scope="col">Bookings</th>
                      <th scope="col">Revenue</th>
                    </tr>
                  </thead>
                  <tbody>
                    {series.points.map((p) => (
                      <tr key={p.date}>
                        <th scope="row">{shortDate(p.date)}</th>
                        <td>{p.clicks.organic}</td>
                        <td>{p.clicks.marketing}</td>
                        <td>{p.bookings.organic + p.bookings.marketing + p.bookings.unattributed}</td>
                        <td>{money(p.revenue, currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </details>
          </section>
          <section aria-labelledby="campaigns-title">
            <h2 id="campaigns-title">Campaigns</h2>
            {summary.campaigns.length === 0 ? (
              <Notice>No campaign clicks in this range. Links with utm_campaign show up here.</Notice>
            ) : (
              <TableScroll label="Campaigns">
                <table>
                  <caption class="visually-hidden">Campaigns</caption>
                  <thead>
                    <tr>
                      <th scope="col">Campaign</th>
                      <th scope="col">Source</th>
                      <th scope="col">Medium</th>
                      <th scope="col">Clicks</th>
                      <th scope="col">Bookings</th>
                      <th scope="col">Conversion</th>
                    </tr>
                  </thead>
                  <tbody>
                    {summary.campaigns.map((c) => (
                      <tr key={`${c.utm_source}|${c.utm_medium}|${c.utm_campaign}`}>
                        <th scope="row">{c.utm_campaign}</th>
                        <td>{c.utm_source}</td>
                        <td>{c.utm_medium}</td>
                        <td>{c.clicks}</td>
                        <td>{c.bookings}</td>
                        <td>{percent(c.conversion_rate)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
        </>
      )}
    </Page>
  );
}
