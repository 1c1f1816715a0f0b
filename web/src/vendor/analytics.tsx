// Analytics: clicks, bookings and revenue over time as charts with the same numbers as a table, totals per
// traffic type, and the campaigns with their conversion and revenue (decisions §8, §17), over a chosen
// range of days, with or without bot traffic, and the range's clicks exported as CSV.
import { useMemo, useState } from 'preact/hooks';
import { api, call, type Schemas, saveFile } from '../api.ts';
import { money } from '../format.ts';
import { Checkbox, ErrorMessage, Field, Loading, Notice, Page, TableScroll, useAction } from '../ui.tsx';
import { DailyChart, LINES, type Line } from './chart.tsx';
import { useLoad } from './data.ts';
import { dateRange, lastDaysDates } from './range.ts';

const PRESETS = [7, 30, 90] as const;

type Summary = Schemas['Summary'];
type Timeseries = Schemas['Timeseries'];

const percent = (rate: number | null) =>
  rate === null
    ? 'n/a'
    : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(rate);

const shortDate = (date: string) =>
  new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** The sum of two-decimal amounts, counted in cents so that 0.1 + 0.2 stays 0.30. */
const addAmounts = (...amounts: string[]) =>
  (amounts.reduce((cents, a) => cents + Math.round(Number(a) * 100), 0) / 100).toFixed(2);

const sameRange = (a: { first: string; last: string }, b: { first: string; last: string }) =>
  a.first === b.first && a.last === b.last;

export function AnalyticsPage() {
  const [range, setRange] = useState(() => lastDaysDates(30));
  const [draft, setDraft] = useState(range);
  const [includeBots, setIncludeBots] = useState(false);
  // every analytics request of the page asks the same range, with bots only while the box is ticked
  const query = useMemo(
    () => ({ ...dateRange(range.first, range.last), ...(includeBots && { include_bots: true }) }),
    [range.first, range.last, includeBots],
  );
  const data = useLoad(
    () =>
      Promise.all([
        call(() => api.GET('/api/v1/marketing/vendor/summary/', { params: { query } })),
        call(() => api.GET('/api/v1/marketing/vendor/timeseries/', { params: { query } })),
      ]),
    [query],
  );

  const choose = (next: { first: string; last: string }) => {
    setDraft(next);
    setRange(next);
  };
  const apply = (event: Event) => {
    event.preventDefault();
    setRange(draft);
  };
  // the range's clicks as the API writes them (streamed CSV, oldest first), with bots while they are shown
  const exportCsv = useAction(() =>
    saveFile(() =>
      api.GET('/api/v1/marketing/vendor/clicks/export/', { params: { query }, parseAs: 'blob' }),
    ),
  );
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
        {PRESETS.map((days) => {
          const preset = lastDaysDates(days);
          return (
            <button
              key={days}
              type="button"
              class="button"
              aria-pressed={sameRange(preset, range)}
              onClick={() => choose(preset)}
            >
              Last {days} days
            </button>
          );
        })}
      </form>
      <div class="row analytics-tools">
        <Checkbox label="Show bot traffic" checked={includeBots} onChecked={setIncludeBots} />
        <button type="button" class="button" disabled={exportCsv.busy} onClick={() => exportCsv.run()}>
          Export CSV
        </button>
      </div>
      <ErrorMessage error={exportCsv.error} />
      <ErrorMessage error={data.error} />
      {!summary || !series ? (
        !data.error && <Loading />
      ) : (
        <>
          <Totals summary={summary} />
          <OverTime series={series} range={range} />
          <Campaigns summary={summary} />
          <Channels summary={summary} />
        </>
      )}
    </Page>
  );
}

function Totals({ summary }: { summary: Summary }) {
  const { clicks, bookings_attributed: bookings, bookings_confirmed: confirmed, revenue } = summary;
  const rate = summary.conversion_rate_click_to_booking;
  const amount = (value: string) => money(value, summary.currency);
  return (
    <section aria-labelledby="totals-title">
      <h2 id="totals-title">Totals</h2>
      <dl class="stats">
        <div>
          <dt>Clicks</dt>
          <dd>{clicks.total}</dd>
          <dd class="hint">
            {clicks.organic} organic, {clicks.marketing} marketing
          </dd>
        </div>
        <div>
          <dt>Bookings</dt>
          <dd>{bookings.organic + bookings.marketing + bookings.unattributed}</dd>
          <dd class="hint">{bookings.unattributed} without a click</dd>
        </div>
        <div>
          <dt>Confirmed</dt>
          <dd>{confirmed.organic + confirmed.marketing}</dd>
          <dd class="hint">of the bookings from a click</dd>
        </div>
        <div>
          <dt>Revenue</dt>
          <dd>{amount(addAmounts(revenue.organic, revenue.marketing))}</dd>
          <dd class="hint">from bookings from a click, after refunds</dd>
        </div>
      </dl>
      <TableScroll label="Totals by traffic type">
        <table>
          <caption>By traffic type</caption>
          <thead>
            <tr>
              <th scope="col">Traffic</th>
              <th scope="col">Clicks</th>
              <th scope="col">Bookings</th>
              <th scope="col">Conversion</th>
              <th scope="col">Confirmed</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {(['organic', 'marketing'] as const).map((type) => (
              <tr key={type}>
                <th scope="row">{type === 'organic' ? 'Organic' : 'Marketing'}</th>
                <td>{clicks[type]}</td>
                <td>{bookings[type]}</td>
                <td>{percent(rate[type])}</td>
                <td>{confirmed[type]}</td>
                <td>{amount(revenue[type])}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">Without a click</th>
              <td>n/a</td>
              <td>{bookings.unattributed}</td>
              <td>n/a</td>
              <td>n/a</td>
              <td>n/a</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function OverTime({ series, range }: { series: Timeseries; range: { first: string; last: string } }) {
  const amount = (value: string | number) => money(value, series.currency);
  const { points } = series;
  // one object per chart and answer: a chart is drawn again only when its numbers change
  const charts = useMemo(() => {
    const line = (label: string, look: Line['look'], pick: (p: (typeof points)[number]) => number) => ({
      label,
      look,
      values: points.map(pick),
    });
    return {
      dates: points.map((p) => p.date),
      clicks: [
        line('Organic', LINES.organic, (p) => p.clicks.organic),
        line('Marketing', LINES.marketing, (p) => p.clicks.marketing),
      ],
      bookings: [
        line('Organic', LINES.organic, (p) => p.bookings.organic),
        line('Marketing', LINES.marketing, (p) => p.bookings.marketing),
        line('Without a click', LINES.unattributed, (p) => p.bookings.unattributed),
      ],
      revenue: [line('Revenue', LINES.revenue, (p) => Number(p.revenue))],
    };
  }, [points]);
  const days = `per day from ${range.first} to ${range.last}`;
  const table = 'the table "Per day" below lists the same numbers.';
  return (
    <section aria-labelledby="over-time-title">
      <h2 id="over-time-title">Over time</h2>
      <div class="charts">
        <section aria-labelledby="clicks-title">
          <h3 id="clicks-title">Clicks</h3>
          <DailyChart
            dates={charts.dates}
            lines={charts.clicks}
            axis="Clicks"
            label={`Chart of clicks ${days}, organic and marketing; ${table}`}
          />
        </section>
        <section aria-labelledby="bookings-title">
          <h3 id="bookings-title">Bookings</h3>
          <DailyChart
            dates={charts.dates}
            lines={charts.bookings}
            axis="Bookings"
            label={`Chart of bookings ${days}, organic, marketing and without a click; ${table}`}
          />
        </section>
        <section aria-labelledby="revenue-title">
          <h3 id="revenue-title">Revenue</h3>
          <DailyChart
            dates={charts.dates}
            lines={charts.revenue}
            axis={`Revenue (${series.currency.toUpperCase()})`}
            format={amount}
            label={`Chart of revenue ${days}, from bookings that were confirmed, after refunds; ${table}`}
          />
        </section>
      </div>
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
                <th scope="col">Organic bookings</th>
                <th scope="col">Marketing bookings</th>
                <th scope="col">Bookings without a click</th>
                <th scope="col">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.date}>
                  <th scope="row">{shortDate(p.date)}</th>
                  <td>{p.clicks.organic}</td>
                  <td>{p.clicks.marketing}</td>
                  <td>{p.bookings.organic}</td>
                  <td>{p.bookings.marketing}</td>
                  <td>{p.bookings.unattributed}</td>
                  <td>{amount(p.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </section>
  );
}

/** Bookings made through each channel, a reseller over OCTO (decisions §24): unattributed above. */
function Channels({ summary }: { summary: Summary }) {
  return (
    <section aria-labelledby="channels-title">
      <h2 id="channels-title">Channels</h2>
      {summary.channels.length === 0 ? (
        // a plain paragraph: the page's one status message is the campaigns' (or the loading state's)
        <p class="muted">No bookings through a channel in this range.</p>
      ) : (
        <TableScroll label="Channels">
          <table>
            <caption class="visually-hidden">Channels</caption>
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Bookings</th>
                <th scope="col">Confirmed</th>
                <th scope="col">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {summary.channels.map((c) => (
                <tr key={c.channel_id}>
                  <th scope="row">{c.name}</th>
                  <td>{c.bookings}</td>
                  <td>{c.bookings_confirmed}</td>
                  <td>{money(c.revenue, summary.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function Campaigns({ summary }: { summary: Summary }) {
  return (
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
                <th scope="col">Confirmed</th>
                <th scope="col">Revenue</th>
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
                  <td>{c.bookings_confirmed}</td>
                  <td>{money(c.revenue, summary.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
