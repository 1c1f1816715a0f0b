import type { Generated, Kysely, Transaction } from 'kysely';

// Storage conventions, identical on SQLite and PostgreSQL:
// - datetimes are integer epoch milliseconds (UTC), written by the application's clock;
// - money is integer minor units (cents);
// - booleans are integers 0/1;
// - free-form JSON is text.
// Repositories convert to API values (Date / ISO strings, "45.00", booleans, objects) at their boundary.

export type Millis = number;
export type Flag = 0 | 1;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  is_vendor: Flag;
  is_staff: Flag;
  /** the vendor a vendor account works for (its team's), and its role there; null on other accounts */
  vendor_id: number | null;
  vendor_role: VendorRole | null;
  /** set when the account was removed from its team: it can no longer sign in */
  deactivated_at: Millis | null;
  date_joined: Millis;
  updated_at: Millis;
}

/** A member's role on its vendor's team (decisions §25). */
export type VendorRole = 'owner' | 'manager' | 'staff';

/** An invitation to a vendor's team; only its token's hash is kept (set when its mail is fanned out). */
export interface TeamInvitationsTable {
  id: Generated<number>;
  vendor_id: number;
  email: string;
  role: Exclude<VendorRole, 'owner'>;
  invited_by: number;
  token_hash: string | null;
  created_at: Millis;
  expires_at: Millis;
  accepted_at: Millis | null;
  accepted_user_id: number | null;
  revoked_at: Millis | null;
}

export interface VendorProfilesTable {
  id: Generated<number>;
  user_id: number;
  business_name: string;
  slug: string;
  description: string;
  contact_phone: string;
  contact_email: string;
  address_line1: string;
  address_line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  /** lower-case ISO 4217 code: the currency of the vendor's listings and bookings */
  currency: Generated<string>;
  /** IANA time zone name, as the platform (Intl) spells it */
  time_zone: Generated<string>;
  /** minutes a requested booking holds its window unanswered (decisions §11) */
  request_ttl_minutes: Generated<number>;
  /** minutes an approved booking holds its window unpaid */
  payment_ttl_minutes: Generated<number>;
  /** JSON of the seven days' local open intervals (src/lib/opening-hours.ts); null: always open */
  opening_hours: Generated<string | null>;
  /** the liability waiver every request accepts (decisions §23); '' when none */
  waiver_text: Generated<string>;
  created_at: Millis;
  updated_at: Millis;
}

export interface RefreshTokensTable {
  jti: string;
  user_id: number;
  expires_at: Millis;
  revoked_at: Millis | null;
  created_at: Millis;
}

export interface AppSettingsTable {
  key: string;
  value: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: string;
  created_at: Millis;
  updated_at: Millis;
}

export type ListingKind = 'equipment' | 'adventure';

/** Equipment items and adventure offerings share one table; `kind` tells them apart. */
export interface ListingsTable {
  id: Generated<number>;
  kind: ListingKind;
  vendor_id: number;
  category_id: number;
  public_id: string;
  title: string;
  description: string;
  /** JSON object (equipment details); "{}" for adventures */
  details: string;
  /** equipment location or adventure meeting point */
  location: string;
  /** price per day (equipment) or per person (adventure), in cents */
  price_cents: number;
  duration_minutes: number | null;
  capacity: number | null;
  /** identical units of an equipment item (1 for adventures); migration 2026112502 */
  quantity: Generated<number>;
  /** adventures: whole departures or seats (always 'private' for equipment) */
  booking_mode: Generated<BookingMode>;
  /** cancellation policy (migration 2026112505): a customer's cancel this long before starts_at is refunded in full */
  free_cancellation_hours: Generated<number>;
  /** cancellation policy: the share (0–100) of the amount refunded for a later cancel */
  late_refund_percent: Generated<number>;
  /** adventures: JSON list of schedule rules (decisions §19; src/lib/schedule.ts), '[]' when unscheduled */
  schedule: Generated<string>;
  /** requests for a window starting less than this long after now are refused (migration 2026112801) */
  booking_cutoff_minutes: Generated<number>;
  /** adventures: JSON list of price categories in cents (decisions §21; src/lib/price-settings.ts) */
  price_categories: Generated<string>;
  /** JSON list of extras in cents (decisions §21), '[]' when none */
  extras: Generated<string>;
  /** equipment: JSON list of rates, shortest first (decisions §20; src/lib/rental-terms.ts); '[]' when none */
  rates: Generated<string>;
  /** equipment: the shortest and longest rental a request may ask for; null: no limit */
  min_duration_minutes: Generated<number | null>;
  max_duration_minutes: Generated<number | null>;
  /** equipment: how long after its end a booking still holds its units (turnaround) */
  buffer_minutes: Generated<number>;
  /** JSON list of the questions a request answers (decisions §23; src/lib/questions.ts), '[]' when none */
  questions: Generated<string>;
  /** JSON list of the resources it uses (decisions §22), '[]' when none */
  resources: Generated<string>;
  is_active: Flag;
  archived_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** A listing's photo (decisions §16; migration 2026112507): its stored image and thumbnail by storage key. */
export interface ListingPhotosTable {
  id: Generated<number>;
  listing_id: number;
  image_key: string;
  thumbnail_key: string;
  /** of the stored image (image_key), after orientation and resizing */
  width: number;
  height: number;
  alt: Generated<string>;
  /** 0 to n - 1 among the listing's n photos, without gaps */
  position: number;
  created_at: Millis;
}

/** private: one booking per overlapping window; shared: bookings take seats up to the capacity */
export type BookingMode = 'private' | 'shared';

export interface AvailabilitySlotsTable {
  id: Generated<number>;
  listing_id: number;
  vendor_id: number;
  starts_at: Millis;
  ends_at: Millis;
  is_available: Flag;
  created_at: Millis;
  updated_at: Millis;
}

/** What a vendor changed about one departure of a scheduled offering (decisions §19). */
export interface DepartureOverridesTable {
  id: Generated<number>;
  listing_id: number;
  /** the departure's instant */
  starts_at: Millis;
  /** null: the schedule's (or the offering's) capacity */
  capacity: number | null;
  is_closed: Generated<Flag>;
  /** set when the vendor cancelled the departure (it is then closed too) */
  cancelled_at: Millis | null;
  note: Generated<string>;
  created_at: Millis;
  updated_at: Millis;
}

export type BookingStatus = 'requested' | 'approved' | 'declined' | 'cancelled' | 'confirmed' | 'expired';

export interface BookingsTable {
  id: Generated<number>;
  listing_id: number;
  listing_kind: ListingKind;
  vendor_id: number;
  customer_id: number;
  status: BookingStatus;
  starts_at: Millis;
  ends_at: Millis;
  participants_count: number | null;
  /** units of an equipment booking; null for adventures */
  quantity: number | null;
  customer_notes: string;
  vendor_notes: string;
  total_price_cents: number;
  currency: string;
  listing_click_id: number | null;
  /** while requested or approved: when the hold lapses (decisions §11); kept once expired; else null */
  expires_at: Millis | null;
  /** copies of the attributed click's classification, kept by triggers (migration 2026112209) */
  click_traffic_type: Generated<TrafficType | null>;
  click_utm_source: Generated<string>;
  click_utm_medium: Generated<string>;
  click_utm_campaign: Generated<string>;
  /** when it first reached `confirmed`, kept whatever came after; null if it never did */
  confirmed_at: Generated<Millis | null>;
  /** the succeeded refunds of its payments, kept by triggers on refunds (migration 2026112701) */
  refunded_cents: Generated<number>;
  /** the promo code it redeems while it holds (decisions §21); null when none or the code was deleted */
  promo_code_id: Generated<number | null>;
  /** the code as it was given, kept whatever becomes of the code */
  promo_code: Generated<string | null>;
  /** JSON list of its price lines in cents, fixed when requested; null for bookings of before */
  price_lines: Generated<string | null>;
  /** JSON object of the answers its request gave (decisions §23), '{}' when none */
  answers: Generated<string>;
  /** the waiver acceptance (migration 2026113001): null when no waiver was asked */
  waiver_name: Generated<string | null>;
  waiver_accepted_at: Generated<Millis | null>;
  /** SHA-256 hex of the exact text accepted */
  waiver_text_sha256: Generated<string | null>;
  /** the accepting client's address and User-Agent: shown to the vendor only */
  waiver_client_ip: Generated<string | null>;
  waiver_user_agent: Generated<string | null>;
  attendance: Generated<Attendance>;
  attendance_updated_at: Generated<Millis | null>;
  /** the channel (decisions §24) it was booked through; null for the platform's own requests */
  channel_id: Generated<number | null>;
  /** a channel booking's reference in the reseller's system */
  reseller_reference: Generated<string | null>;
  /** the uuid the reseller gave its reservation: unique per channel where given */
  octo_uuid: Generated<string | null>;
  /** whom a channel booking is for (its customer_id is the channel's account, which is nobody) */
  contact_full_name: Generated<string | null>;
  contact_email: Generated<string | null>;
  contact_phone: Generated<string | null>;
  created_at: Millis;
  updated_at: Millis;
}

/**
 * A reseller or other system booking for a vendor over OCTO (decisions §24; migration 2026120101). Only
 * its key's SHA-256 is kept. `account_id` is a users row that can never sign in, which the channel's
 * bookings use as their customer_id.
 */
export interface ChannelsTable {
  id: Generated<number>;
  vendor_id: number;
  account_id: number;
  name: string;
  /** hex SHA-256 of the key */
  key_hash: string;
  is_active: Generated<Flag>;
  created_at: Millis;
  updated_at: Millis;
}

/** Who came on the day (decisions §23), beside the booking's status. */
export type Attendance = 'pending' | 'checked_in' | 'no_show' | 'returned';

/** A vendor's promo code (decisions §21). */
export interface PromoCodesTable {
  id: Generated<number>;
  vendor_id: number;
  /** upper case: matched without regard to case */
  code: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  valid_from: Millis | null;
  valid_until: Millis | null;
  max_redemptions: number | null;
  /** JSON list of {"kind", "id"}; null: all the vendor's listings */
  listing_ids: string | null;
  is_active: Generated<Flag>;
  created_at: Millis;
  updated_at: Millis;
}

/**
 * A vendor's calendar feed (decisions §24): the secret token of its URL, kept as it was made so the URL can
 * be shown again (docs/calendar-feed.md says why it is not hashed). One row per vendor, made on first ask.
 */
export interface CalendarFeedsTable {
  vendor_id: number;
  token: string;
  created_at: Millis;
}

export interface ResourcesTable {
  id: Generated<number>;
  vendor_id: number;
  name: string;
  quantity: number;
  created_at: Millis;
  updated_at: Millis;
}

export interface ListingResourceRefsTable {
  listing_id: number;
  resource_id: number;
}

/** What one booking takes of one resource while it holds (decisions §22). */
export interface BookingResourcesTable {
  id: Generated<number>;
  booking_id: number;
  resource_id: number;
  listing_id: number;
  per_departure: Flag;
  amount: number;
  starts_at: Millis;
  ends_at: Millis;
  /** ends_at plus the listing's buffer when requested */
  held_until: Millis;
}

export interface BookingStatusHistoryTable {
  id: Generated<number>;
  booking_id: number;
  from_status: BookingStatus | null;
  to_status: BookingStatus;
  note: string;
  actor_id: number | null;
  created_at: Millis;
}

/** A payment's states, in the order the API documents them. */
export const PAYMENT_STATUSES = [
  'requires_payment',
  'processing',
  'succeeded',
  'partially_refunded',
  'failed',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface PaymentsTable {
  id: Generated<number>;
  booking_id: number;
  gateway_payment_intent_id: string;
  client_secret: string;
  gateway_charge_id: string;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  created_at: Millis;
  updated_at: Millis;
}

export type RefundReason =
  | 'requested_by_customer'
  | 'cancelled_by_vendor'
  | 'expired'
  | 'vendor_initiated'
  | 'gateway';
export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/**
 * A refund of a payment (decisions §12). Written as pending before the gateway is called: a pending row's
 * amount is reserved, so pending and succeeded refunds together never exceed the payment's amount.
 */
export interface RefundsTable {
  id: Generated<number>;
  payment_id: number;
  amount_cents: number;
  currency: string;
  reason: RefundReason;
  status: RefundStatus;
  note: Generated<string>;
  /** the gateway's id for the refund; '' until it answered */
  gateway_refund_id: Generated<string>;
  /** the team member who refunded; null when nobody of the vendor did (a customer's cancel, the gateway) */
  actor_id: number | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  gateway_event_id: string;
  event_type: string;
  gateway_payment_intent_id: string;
  payload: string;
  applied: Flag;
  created_at: Millis;
}

/** An authenticated POST's idempotency key (decisions §13); no response yet while its request runs. */
export interface IdempotencyKeysTable {
  id: Generated<number>;
  user_id: number;
  idempotency_key: string;
  /** hex SHA-256 of the method, path and canonical JSON body of the request that claimed the key */
  request_hash: string;
  response_status: number | null;
  response_content_type: string | null;
  response_body: string | null;
  created_at: Millis;
  expires_at: Millis;
  /** the process running the claim (http/claim-owner.ts: OwnerTag); null where it cannot be named */
  claimed_by: string | null;
}

/** A vendor's webhook endpoint (decisions §14; migration 2026112508). */
export interface NotificationEndpointsTable {
  id: Generated<number>;
  vendor_id: number;
  url: string;
  description: Generated<string>;
  /** JSON array of event types, or ["*"] */
  event_types: string;
  /** whsec_ + base64 of the signing key */
  secret: string;
  /** after a rotation the old secret also signs (a second v1 signature) until previous_secret_expires_at */
  previous_secret: string | null;
  previous_secret_expires_at: Millis | null;
  is_active: Generated<Flag>;
  created_at: Millis;
  updated_at: Millis;
}

/** The outbox: one event, written in the transaction of the change it reports (migration 2026112508). */
export interface NotificationEventsTable {
  id: Generated<number>;
  /** evt_...: the body's id and the webhook-id header */
  public_id: string;
  type: string;
  /** whose endpoints receive it; null for an account's own mail */
  vendor_id: number | null;
  booking_id: number | null;
  /** the JSON body as every receiver gets it */
  payload: string;
  created_at: Millis;
  /** when the worker made its deliveries; null until then */
  dispatched_at: Millis | null;
}

export type DeliveryChannel = 'webhook' | 'email';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export type RecipientRole = 'customer' | 'vendor' | 'account' | 'invitee';

/** One event to one receiver: a webhook endpoint or a mail recipient (migration 2026112508). */
export interface NotificationDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  channel: DeliveryChannel;
  endpoint_id: number | null;
  recipient: string | null;
  recipient_role: RecipientRole | null;
  /** a value the message needs that is kept nowhere else in clear (a reset token); null once finished */
  secret: string | null;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  /** due time while pending (a claimed attempt's claim expiry while it runs); null once finished */
  next_attempt_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** A password reset token, kept as a hash (decisions §15; migration 2026112508). */
export interface PasswordResetTokensTable {
  id: Generated<number>;
  user_id: number;
  /** hex SHA-256 of the token */
  token_hash: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

/**
 * A rate limit's count for one route and client address in the current window (decisions §18; migration
 * 2026112601): PostgreSQL only, where every server process counts in it.
 */
export interface RateLimitHitsTable {
  /** the route and the client address */
  key: string;
  count: number;
  /** when the window ends and the next hit starts a new one */
  expires_at: Millis;
}

export type TrafficType = 'organic' | 'marketing';
export type ClickSource = 'detail_view' | 'track';

export interface ListingClicksTable {
  id: Generated<number>;
  listing_id: number;
  listing_kind: ListingKind;
  vendor_id: number;
  traffic_type: TrafficType;
  source: ClickSource;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
  gclid: string;
  fbclid: string;
  referrer: string;
  user_id: number | null;
  /** a known crawler's or bot's click (by User-Agent): kept, left out of analytics unless asked for */
  is_bot: Flag;
  created_at: Millis;
}

/** Version counters bumped by triggers (see migration 2026112208-catalog-version). */
export interface CacheVersionsTable {
  name: string;
  version: number;
}

/** The longest booking window a listing has had (migration 2026112213): bounds overlap checks. */
export interface ListingBookingSpansTable {
  listing_id: number;
  longest_ms: number;
}

// The analytics rollups, all kept exact by triggers on their source (migration 2026112701): every write
// of a click or booking applies its delta in its own transaction. On PostgreSQL each key has one more
// column, `shard` (the writing connection's), whose rows the readers sum over; no query names it.

/** A vendor's clicks per UTC day, traffic type, bot flag and campaign: the summary reads whole days. */
export interface ListingClickDailyTable {
  vendor_id: number;
  /** epoch milliseconds of the UTC midnight starting the day */
  day: Millis;
  traffic_type: TrafficType;
  is_bot: Flag;
  utm_campaign: string;
  /** '' unless the row has a campaign */
  utm_source: string;
  /** '' unless the row has a campaign */
  utm_medium: string;
  clicks: number;
}

/** A vendor's clicks per UTC hour, traffic type and bot flag: the time series reads whole hours. */
export interface ListingClickHourlyTable {
  vendor_id: number;
  /** epoch milliseconds of the start of the hour */
  hour: Millis;
  traffic_type: TrafficType;
  is_bot: Flag;
  clicks: number;
}

/** What the booking rollups add up: bookings, those that reached confirmed, and their revenue. */
interface BookingSums {
  bookings: number;
  confirmed: number;
  /** total_price_cents less refunded_cents of the bookings that reached confirmed */
  revenue_cents: number;
}

/**
 * A vendor's bookings per UTC day of creation, booking currency and their click's classification, read
 * like listing_click_daily.
 */
export interface BookingDailyTable extends BookingSums {
  vendor_id: number;
  /** epoch milliseconds of the UTC midnight starting the day */
  day: Millis;
  /** the attributed click's traffic type; '' for a booking without one */
  traffic_type: TrafficType | '';
  currency: string;
  utm_campaign: string;
  utm_source: string;
  utm_medium: string;
}

/** A vendor's bookings per UTC hour of creation, traffic type of their click and currency. */
export interface BookingHourlyTable extends BookingSums {
  vendor_id: number;
  hour: Millis;
  traffic_type: TrafficType | '';
  currency: string;
}

export interface Database {
  users: UsersTable;
  vendor_profiles: VendorProfilesTable;
  refresh_tokens: RefreshTokensTable;
  app_settings: AppSettingsTable;
  categories: CategoriesTable;
  listings: ListingsTable;
  listing_photos: ListingPhotosTable;
  availability_slots: AvailabilitySlotsTable;
  departure_overrides: DepartureOverridesTable;
  bookings: BookingsTable;
  booking_status_history: BookingStatusHistoryTable;
  team_invitations: TeamInvitationsTable;
  promo_codes: PromoCodesTable;
  resources: ResourcesTable;
  calendar_feeds: CalendarFeedsTable;
  channels: ChannelsTable;
  listing_resource_refs: ListingResourceRefsTable;
  booking_resources: BookingResourcesTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  webhook_events: WebhookEventsTable;
  listing_clicks: ListingClicksTable;
  cache_versions: CacheVersionsTable;
  listing_booking_spans: ListingBookingSpansTable;
  listing_click_daily: ListingClickDailyTable;
  booking_daily: BookingDailyTable;
  listing_click_hourly: ListingClickHourlyTable;
  booking_hourly: BookingHourlyTable;
  idempotency_keys: IdempotencyKeysTable;
  notification_endpoints: NotificationEndpointsTable;
  notification_events: NotificationEventsTable;
  notification_deliveries: NotificationDeliveriesTable;
  password_reset_tokens: PasswordResetTokensTable;
  rate_limit_hits: RateLimitHitsTable;
}

export type Dialect = 'sqlite' | 'postgres';

/** A database handle or an open transaction: what every repository function takes first. */
export type Db = Kysely<Database> | Transaction<Database>;
