import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { DateTimeOut, Nullable } from '../../http/schemas.ts';

/** Tracking strings are at most 500 characters (decisions §8); null is taken as absent. */
export const MAX_TRACKING_LENGTH = 500;
const TrackingText = Type.Optional(Nullable(Type.String({ maxLength: MAX_TRACKING_LENGTH })));

const ListingType = Type.Enum(['equipment', 'adventure'], { description: 'equipment or adventure' });
const TrafficType = Type.Enum(['organic', 'marketing'], { description: 'organic or marketing' });

export const TrackClickBody = Type.Object({
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
});

export const TrackedClickSchema = Type.Object({
  marketing_click_id: Type.Integer(),
  traffic_type: TrafficType,
});

// The range is half-open: [from, to). Parsed by the service (offsets honoured, no zone = UTC).
const Range = {
  from: Type.String({ maxLength: 64, description: 'ISO 8601 datetime, inclusive; no zone means UTC' }),
  to: Type.String({ maxLength: 64, description: 'ISO 8601 datetime, exclusive; later than from' }),
};

export const ClicksQuery = Type.Object({
  ...Range,
  traffic_type: Type.Optional(TrafficType),
  listing_type: Type.Optional(ListingType),
  utm_campaign: Type.Optional(
    Type.String({ maxLength: MAX_TRACKING_LENGTH, description: 'exact campaign; empty means any' }),
  ),
  ...PageQuery,
});

export const SummaryQuery = Type.Object(Range);

export const ClickSchema = Type.Object({
  marketing_click_id: Type.Integer(),
  listing_type: ListingType,
  public_id: Type.String(),
  listing_title: Type.String(),
  equipment_item_id: Nullable(Type.Integer()),
  adventure_offering_id: Nullable(Type.Integer()),
  traffic_type: TrafficType,
  source: Type.Enum(['detail_view', 'track']),
  utm_source: Type.String(),
  utm_medium: Type.String(),
  utm_campaign: Type.String(),
  utm_term: Type.String(),
  utm_content: Type.String(),
  gclid: Type.String(),
  fbclid: Type.String(),
  referrer: Type.String(),
  user_id: Nullable(Type.Integer()),
  created_at: DateTimeOut,
});

const Rate = Nullable(
  Type.Number({ description: 'bookings / clicks, 4 decimal places; null when clicks are 0' }),
);

export const SummarySchema = Type.Object({
  from: DateTimeOut,
  to: DateTimeOut,
  clicks: Type.Object({ organic: Type.Integer(), marketing: Type.Integer(), total: Type.Integer() }),
  bookings_attributed: Type.Object({
    organic: Type.Integer(),
    marketing: Type.Integer(),
    unattributed: Type.Integer(),
  }),
  conversion_rate_click_to_booking: Type.Object({ organic: Rate, marketing: Rate }),
  campaigns: Type.Array(
    Type.Object({
      utm_source: Type.String(),
      utm_medium: Type.String(),
      utm_campaign: Type.String(),
      clicks: Type.Integer(),
      bookings: Type.Integer(),
      conversion_rate: Rate,
    }),
    { maxItems: 50 },
  ),
});
