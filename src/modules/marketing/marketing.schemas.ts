import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { PageQuery, PaginatedSchema } from '../../http/pagination.ts';
import { DateTimeOut, MoneyOut, Named, Nullable, StringEnum } from '../../http/schemas.ts';

/** Tracking strings are at most 500 characters (decisions §8); null is taken as absent. */
export const MAX_TRACKING_LENGTH = 500;
const TrackingText = Type.Optional(Nullable(Type.String({ maxLength: MAX_TRACKING_LENGTH })));

const LISTING_TYPES = ['equipment', 'adventure'] as const;
const TRAFFIC_TYPES = ['organic', 'marketing'] as const;
const ListingType = Type.Enum([...LISTING_TYPES], { description: 'equipment or adventure' });
const TrafficType = Type.Enum([...TRAFFIC_TYPES], { description: 'organic or marketing' });

export const TrackClickBody = Type.Object(
  {
    listing_type: ListingType,
    public_id: Type.String({ minLength: 1, maxLength: 64, description: 'public_id of a visible listing' }),
    utm_source: TrackingText,
    utm_medium: TrackingText,
    utm_campaign: TrackingText,
    utm_term: TrackingText,
    utm_content: TrackingText,
    gclid: TrackingText,
    fbclid: TrackingText,
    referrer: TrackingText,
  },
  {
    examples: [
      {
        listing_type: 'equipment',
        public_id: 'touring-kayak-1',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'summer-2026',
      },
    ],
  },
);

export const TrackedClickSchema = Named(
  'TrackedClick',
  Type.Object(
    {
      marketing_click_id: Type.Integer({ description: 'send it with a booking request to attribute it' }),
      traffic_type: StringEnum(TRAFFIC_TYPES),
    },
    { examples: [{ marketing_click_id: 812, traffic_type: 'marketing' }] },
  ),
);

// The range is half-open: [from, to). Parsed by the service (offsets honoured, no zone = UTC).
const Range = {
  from: Type.String({ maxLength: 64, description: 'ISO 8601 datetime, inclusive; no zone means UTC' }),
  to: Type.String({ maxLength: 64, description: 'ISO 8601 datetime, exclusive; later than from' }),
};

const IncludeBots = {
  include_bots: Type.Optional(
    Type.Boolean({
      description:
        "count the clicks of known crawlers and bots (by User-Agent) too; they're left out by default",
    }),
  ),
};

const ClickFilters = {
  ...Range,
  ...IncludeBots,
  traffic_type: Type.Optional(TrafficType),
  listing_type: Type.Optional(ListingType),
  utm_campaign: Type.Optional(
    Type.String({ maxLength: MAX_TRACKING_LENGTH, description: 'exact campaign; empty means any' }),
  ),
};

export const ClicksQuery = Type.Object({ ...ClickFilters, ...PageQuery });

/** The export takes the list's filters, without pages: it is the whole list. */
export const ClicksExportQuery = Type.Object(ClickFilters);

/** The summary's and the time series' query: the range, and whether bots count. */
export const RangeQuery = Type.Object({ ...Range, ...IncludeBots });

export const ClickSchema = Named(
  'Click',
  Type.Object(
    {
      marketing_click_id: Type.Integer(),
      listing_type: StringEnum(LISTING_TYPES),
      public_id: Type.String(),
      listing_title: Type.String(),
      equipment_item_id: Nullable(Type.Integer()),
      adventure_offering_id: Nullable(Type.Integer()),
      traffic_type: StringEnum(TRAFFIC_TYPES),
      source: StringEnum(['detail_view', 'track'], { description: 'a detail view, or /track/click/' }),
      utm_source: Type.String(),
      utm_medium: Type.String(),
      utm_campaign: Type.String(),
      utm_term: Type.String(),
      utm_content: Type.String(),
      gclid: Type.String(),
      fbclid: Type.String(),
      referrer: Type.String(),
      user_id: Nullable(Type.Integer()),
      is_bot: Type.Boolean({ description: "a known crawler's or bot's click, by its User-Agent" }),
      created_at: DateTimeOut,
    },
    {
      examples: [
        {
          marketing_click_id: 812,
          listing_type: 'equipment',
          public_id: 'touring-kayak-1',
          listing_title: 'Touring kayak',
          equipment_item_id: 5,
          adventure_offering_id: null,
          traffic_type: 'marketing',
          source: 'detail_view',
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'summer-2026',
          utm_term: '',
          utm_content: '',
          gclid: '',
          fbclid: '',
          referrer: 'https://mail.example/',
          user_id: null,
          is_bot: false,
          created_at: '2026-06-10T18:22:05.000Z',
        },
      ],
    },
  ),
);
export const ClickPage = PaginatedSchema(ClickSchema);

/** The export's body: typed as the stream the route sends, documented as the text it becomes. */
export const ClicksCsv = Named(
  'ClicksCsv',
  Type.Unsafe<Readable>({
    type: 'string',
    description: "text/csv: a header row with the click object's fields, then a row per click",
  }),
);

/** Revenue in the vendor's currency: bookings requested in a former currency add nothing. */
const Revenue = { ...MoneyOut, description: "in the vendor's currency" };
const Currency = Type.String({
  description: "the vendor's currency (ISO 4217, lower-case), of every revenue",
});

const Rate = Nullable(
  Type.Number({ description: 'bookings / clicks, 4 decimal places; null when clicks are 0' }),
);

export const SummarySchema = Named(
  'Summary',
  Type.Object(
    {
      from: DateTimeOut,
      to: DateTimeOut,
      currency: Currency,
      clicks: Type.Object({ organic: Type.Integer(), marketing: Type.Integer(), total: Type.Integer() }),
      bookings_attributed: Type.Object({
        organic: Type.Integer(),
        marketing: Type.Integer(),
        unattributed: Type.Integer(),
      }),
      conversion_rate_click_to_booking: Type.Object({ organic: Rate, marketing: Rate }),
      bookings_confirmed: Type.Object(
        { organic: Type.Integer(), marketing: Type.Integer() },
        { description: 'attributed bookings in range that reached confirmed, whatever happened later' },
      ),
      revenue: Type.Object(
        { organic: Revenue, marketing: Revenue },
        { description: "those bookings' total_price less their succeeded refunds" },
      ),
      campaigns: Type.Array(
        Type.Object({
          utm_source: Type.String(),
          utm_medium: Type.String(),
          utm_campaign: Type.String(),
          clicks: Type.Integer(),
          bookings: Type.Integer(),
          conversion_rate: Rate,
          bookings_confirmed: Type.Integer(),
          revenue: Revenue,
        }),
        { maxItems: 50 },
      ),
      channels: Type.Array(
        Type.Object({
          channel_id: Type.Integer(),
          name: Type.String({ description: "the channel's name as it is now" }),
          bookings: Type.Integer(),
          bookings_confirmed: Type.Integer(),
          revenue: Revenue,
        }),
        {
          description:
            'bookings in range made through each channel (a reseller over OCTO, decisions §24), which count ' +
            'as unattributed above; by bookings, most first',
        },
      ),
    },
    {
      description: "Clicks and click-to-booking conversion of a vendor's listings in [from, to).",
      examples: [
        {
          from: '2026-06-01T00:00:00.000Z',
          to: '2026-07-01T00:00:00.000Z',
          currency: 'eur',
          clicks: { organic: 40, marketing: 10, total: 50 },
          bookings_attributed: { organic: 2, marketing: 1, unattributed: 1 },
          conversion_rate_click_to_booking: { organic: 0.05, marketing: 0.1 },
          bookings_confirmed: { organic: 1, marketing: 1 },
          revenue: { organic: '45.00', marketing: '90.00' },
          campaigns: [
            {
              utm_source: 'newsletter',
              utm_medium: 'email',
              utm_campaign: 'summer-2026',
              clicks: 10,
              bookings: 1,
              conversion_rate: 0.1,
              bookings_confirmed: 1,
              revenue: '90.00',
            },
          ],
          channels: [
            {
              channel_id: 3,
              name: 'Harbour Hotel concierge',
              bookings: 1,
              bookings_confirmed: 1,
              revenue: '70.00',
            },
          ],
        },
      ],
    },
  ),
);

/** The most points a time series has: a year of local dates, a leap year included (decisions §17). */
export const MAX_TIMESERIES_POINTS = 366;

export const TimeseriesSchema = Named(
  'Timeseries',
  Type.Object(
    {
      from: DateTimeOut,
      to: DateTimeOut,
      time_zone: Type.String({
        description: "the vendor's IANA time zone, whose local dates the points are",
      }),
      currency: Currency,
      points: Type.Array(
        Type.Object({
          date: Type.String({ format: 'date', description: 'a local date of the time zone, YYYY-MM-DD' }),
          clicks: Type.Object({ organic: Type.Integer(), marketing: Type.Integer() }),
          bookings: Type.Object(
            { organic: Type.Integer(), marketing: Type.Integer(), unattributed: Type.Integer() },
            {
              description:
                "bookings requested that date, by their attributed click's traffic type; unattributed without one",
            },
          ),
          revenue: {
            ...MoneyOut,
            description:
              "total_price less succeeded refunds of that date's bookings that reached confirmed (whatever " +
              "happened later), in the vendor's currency; bookings requested in a former currency add nothing",
          },
        }),
        { maxItems: MAX_TIMESERIES_POINTS },
      ),
    },
    {
      description:
        "A vendor's clicks, bookings and revenue per local date of their time zone over [from, to): one " +
        'point per date the range touches, in order, zeros included; a date at either end counts only the ' +
        'part of it inside the range.',
      examples: [
        {
          from: '2026-03-07T08:00:00.000Z',
          to: '2026-03-09T07:00:00.000Z',
          time_zone: 'America/Los_Angeles',
          currency: 'usd',
          points: [
            {
              date: '2026-03-07',
              clicks: { organic: 12, marketing: 4 },
              bookings: { organic: 1, marketing: 1, unattributed: 0 },
              revenue: '90.00',
            },
            {
              date: '2026-03-08',
              clicks: { organic: 0, marketing: 0 },
              bookings: { organic: 0, marketing: 0, unattributed: 0 },
              revenue: '0.00',
            },
          ],
        },
      ],
    },
  ),
);
