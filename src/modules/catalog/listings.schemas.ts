import { type TSchema, Type } from 'typebox';
import type { ListingKind } from '../../db/database.ts';
import { PageQuery, PaginatedSchema } from '../../http/pagination.ts';
import {
  DateTimeOut,
  exampleOf,
  MoneyIn,
  MoneyOut,
  Named,
  Ref,
  StringEnum,
  Text,
} from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import {
  MAX_BUFFER_MINUTES,
  MAX_LIMIT_MINUTES,
  MAX_RATE_MINUTES,
  MAX_RATES,
  MIN_LIMIT_MINUTES,
  MIN_RATE_MINUTES,
} from '../../lib/rental-terms.ts';
import { MAX_RULE_CAPACITY, MAX_SCHEDULE_RULES, MAX_START_TIMES, WEEKDAYS } from '../../lib/schedule.ts';
import { VendorProfileSchema } from '../accounts/index.ts';
import { CategoryRefSchema } from './categories.schemas.ts';
import { KINDS, type KindDescriptor, type ListingAttribute } from './kinds.ts';
import { MAX_SEARCH_LENGTH } from './listing-search.ts';
import { PhotoSchema } from './photos.schemas.ts';
import {
  EXAMPLE_EXTRAS,
  EXAMPLE_PRICE_CATEGORIES,
  EXTRAS_IN,
  EXTRAS_OUT,
  PRICE_CATEGORIES_IN,
  PRICE_CATEGORIES_OUT,
} from './price-settings.schemas.ts';
import { EXAMPLE_QUESTIONS, QUESTIONS_IN, QUESTIONS_OUT } from './questions.schemas.ts';
import { RESOURCE_USES_IN, RESOURCE_USES_OUT } from './resource-uses.schemas.ts';

// Every listing schema is built from the kind descriptor, so both kinds share one definition.

export const PUBLIC_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const MAX_DETAILS_BYTES = 16 * 1024;
/** Identical units one equipment item may have (decisions §10). */
export const MAX_QUANTITY = 10_000;

/** The query parameters a detail view stores on its click (the marketing module classifies them). */
export const TRACKING_PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
] as const;
export type TrackingParam = (typeof TRACKING_PARAMS)[number];
export const MAX_TRACKING_LENGTH = 500;

export const ORDERINGS = ['price', '-price', 'created_at', '-created_at', 'title', '-title'] as const;
export type Ordering = (typeof ORDERINGS)[number];

export const VendorRefSchema = Named(
  'VendorRef',
  Type.Object(
    { business_name: Type.String(), slug: Type.String() },
    { examples: [{ business_name: 'Blue Lagoon Watersports', slug: 'blue-lagoon-watersports' }] },
  ),
);

const SCHEDULE_RULE_FIELDS = {
  weekdays: Type.Array(StringEnum([...WEEKDAYS]), {
    minItems: 1,
    maxItems: WEEKDAYS.length,
    uniqueItems: true,
    description: 'the local weekdays it runs on, no repeats',
  }),
  start_times: Type.Array(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), {
    minItems: 1,
    maxItems: MAX_START_TIMES,
    uniqueItems: true,
    description: "local start times HH:MM in the vendor's time_zone, no repeats",
  }),
  from_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'first local date it runs (inclusive); null: no start',
  }),
  to_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'last local date it runs (inclusive, not before from_date); null: no end',
  }),
  capacity: Type.Union([Type.Integer({ minimum: 1, maximum: MAX_RULE_CAPACITY }), Type.Null()], {
    description: "these departures' capacity; null: the offering's",
  }),
};

export const ScheduleRuleSchema = Named(
  'ScheduleRule',
  Type.Object(SCHEDULE_RULE_FIELDS, {
    description:
      'One departure for each start time on each local date of its weekdays within its dates; where two ' +
      "rules make the same instant, the first rule's capacity counts.",
    examples: [
      {
        weekdays: ['sat', 'sun'],
        start_times: ['09:00', '14:30'],
        from_date: '2026-05-01',
        to_date: '2026-09-30',
        capacity: null,
      },
    ],
  }),
);

const SCHEDULE_IN = Type.Array(
  Type.Object({
    ...SCHEDULE_RULE_FIELDS,
    from_date: Type.Optional(SCHEDULE_RULE_FIELDS.from_date),
    to_date: Type.Optional(SCHEDULE_RULE_FIELDS.to_date),
    capacity: Type.Optional(SCHEDULE_RULE_FIELDS.capacity),
  }),
  {
    maxItems: MAX_SCHEDULE_RULES,
    description:
      'departure rules (decisions §19); [] (default): unscheduled, booked for free windows. With rules, ' +
      'requests must start at a departure (GET .../departures/). Changing them never changes bookings. ' +
      'Errors name the member (schedule.0.start_times).',
  },
);

export const RateSchema = Named(
  'Rate',
  Type.Object(
    {
      duration_minutes: Type.Integer({
        minimum: MIN_RATE_MINUTES,
        maximum: MAX_RATE_MINUTES,
        description: 'the rental period this price covers, in minutes',
      }),
      price: MoneyOut,
    },
    {
      description:
        'A price for one unit rented up to duration_minutes (decisions §20). A window of D minutes costs ' +
        'the lowest of: the shortest rate at least D long; the rental days (ceil(D / 1440)) × ' +
        'price_per_day; when D is longer than the longest rate, that rate + the days beyond it × ' +
        'price_per_day. Then × quantity.',
      examples: [{ duration_minutes: 60, price: '15.00' }],
    },
  ),
);

const RATES_IN = Type.Array(Type.Object({ duration_minutes: Type.Integer(), price: MoneyIn }), {
  maxItems: MAX_RATES,
  description:
    `prices for rental periods (at most ${MAX_RATES}; durations ${MIN_RATE_MINUTES}–${MAX_RATE_MINUTES} ` +
    'minutes, no repeats); [] (default): priced per day only. Errors name the member ' +
    '(rates.1.duration_minutes).',
});

const durationLimit = (which: 'shortest' | 'longest') => ({
  input: Type.Union([Type.Integer({ minimum: MIN_LIMIT_MINUTES, maximum: MAX_LIMIT_MINUTES }), Type.Null()], {
    description:
      `the ${which} rental a request may ask for, in minutes (${MIN_LIMIT_MINUTES}–${MAX_LIMIT_MINUTES}); ` +
      'null (default): no limit. A request outside the limits is a 400 on ends_at; min must not exceed max.',
  }),
  output: Type.Union([Type.Integer(), Type.Null()]),
});

const ATTRIBUTES: Record<ListingAttribute, { input: TSchema; output: TSchema }> = {
  rates: { input: RATES_IN, output: Type.Array(Ref(RateSchema)) },
  min_duration_minutes: durationLimit('shortest'),
  max_duration_minutes: durationLimit('longest'),
  buffer_minutes: {
    input: Type.Integer({
      minimum: 0,
      maximum: MAX_BUFFER_MINUTES,
      description:
        'turnaround: each requested, approved or confirmed booking keeps its units taken until ends_at + ' +
        "this many minutes (cleaning, charging); default 0. It is the item's current buffer for every " +
        'booking, old ones included; raising it where current and future bookings would then hold more ' +
        'units than the item has is 409 booking_conflict.',
    }),
    output: Type.Integer(),
  },
  details: {
    input: Type.Object(
      {},
      {
        additionalProperties: true,
        description: `free-form key/value attributes; at most ${MAX_DETAILS_BYTES / 1024} KiB as JSON`,
      },
    ),
    output: Type.Object({}, { additionalProperties: true }),
  },
  quantity: {
    input: Type.Integer({
      minimum: 1,
      maximum: MAX_QUANTITY,
      description:
        'identical units of the item (default 1). Bookings hold units: at no instant may the units of ' +
        'requested, approved and confirmed bookings exceed it (the peak counts, not the sum). Lowering it ' +
        'below the peak of current and future bookings is 409 booking_conflict.',
    }),
    output: Type.Integer({ description: 'identical units of the item' }),
  },
  duration_minutes: {
    input: Type.Integer({ minimum: 1, maximum: MAX_ID }),
    output: Type.Integer(),
  },
  capacity: {
    input: Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description:
        'participants per booking at most; for a shared adventure also the seats of one departure. ' +
        "Lowering a shared adventure's capacity below the peak of current and future seats is 409 booking_conflict.",
    }),
    output: Type.Integer(),
  },
  booking_mode: {
    input: StringEnum(['private', 'shared'], {
      description:
        'private (default): one booking per overlapping window. shared: each booking takes ' +
        'participants_count seats and at no instant may seats held exceed capacity (a shared adventure ' +
        'needs a capacity). Switching to private while two current or future bookings overlap, or to ' +
        'shared when their seats would exceed capacity, is 409 booking_conflict.',
    }),
    output: StringEnum(['private', 'shared']),
  },
  schedule: {
    input: SCHEDULE_IN,
    output: Type.Array(Ref(ScheduleRuleSchema)),
  },
  price_categories: { input: PRICE_CATEGORIES_IN, output: PRICE_CATEGORIES_OUT },
};

/** The longest booking cutoff: 30 days (decisions §19). */
export const MAX_BOOKING_CUTOFF_MINUTES = 43_200;
const BOOKING_CUTOFF_MINUTES = Type.Integer({
  minimum: 0,
  maximum: MAX_BOOKING_CUTOFF_MINUTES,
  description:
    'requests for a window (or departure) starting less than this many minutes after now are refused ' +
    '(409 booking_conflict); default 0',
});

/** The longest free-cancellation period: a year (decisions §12). */
export const MAX_FREE_CANCELLATION_HOURS = 8760;

const FREE_CANCELLATION_HOURS = Type.Integer({
  minimum: 0,
  maximum: MAX_FREE_CANCELLATION_HOURS,
  description:
    'a paid booking cancelled by its customer at least this many hours before starts_at is refunded in full (default 24)',
});
const LATE_REFUND_PERCENT = Type.Integer({
  minimum: 0,
  maximum: 100,
  description:
    'the share of the amount refunded for a later cancel (before starts_at), rounded down to the cent (default 0)',
});

const CANCELLATION_POLICY_IN = Type.Object(
  {
    free_cancellation_hours: Type.Optional(FREE_CANCELLATION_HOURS),
    late_refund_percent: Type.Optional(LATE_REFUND_PERCENT),
  },
  {
    description:
      'what a customer gets back when cancelling a paid booking; a member left out keeps its stored value ' +
      '(on create: its default). A cancel by the vendor is always refunded in full.',
  },
);

export const CancellationPolicySchema = Named(
  'CancellationPolicy',
  Type.Object(
    { free_cancellation_hours: FREE_CANCELLATION_HOURS, late_refund_percent: LATE_REFUND_PERCENT },
    {
      description:
        'A paid booking cancelled by its customer at least free_cancellation_hours before starts_at is ' +
        'refunded in full; later (still before starts_at) late_refund_percent of the amount, rounded down ' +
        'to the cent.',
      examples: [{ free_cancellation_hours: 48, late_refund_percent: 50 }],
    },
  ),
);

/** Writable fields a PUT may leave out (see buildListingSchemas). */
const ADDED_LATER: ReadonlySet<string> = new Set<string>([
  'quantity',
  'booking_mode',
  'cancellation_policy',
  'schedule',
  'booking_cutoff_minutes',
  'price_categories',
  'extras',
  'questions',
  'resources',
  'rates',
  'min_duration_minutes',
  'max_duration_minutes',
  'buffer_minutes',
]);

// What the document's examples show for each kind.
const EXAMPLE_ATTRIBUTES: Record<ListingAttribute, unknown> = {
  details: { length_m: 4.3, seats: 1 },
  quantity: 10,
  duration_minutes: 120,
  capacity: 12,
  booking_mode: 'shared',
  rates: [
    { duration_minutes: 60, price: '15.00' },
    { duration_minutes: 240, price: '40.00' },
  ],
  min_duration_minutes: 60,
  max_duration_minutes: 10080,
  buffer_minutes: 30,
  schedule: [
    {
      weekdays: ['sat', 'sun'],
      start_times: ['09:00', '14:30'],
      from_date: null,
      to_date: null,
      capacity: null,
    },
  ],
  price_categories: EXAMPLE_PRICE_CATEGORIES,
};
const EXAMPLE_LISTINGS: Record<ListingKind, { public_id: string; title: string; where: string }> = {
  equipment: { public_id: 'touring-kayak-1', title: 'Touring kayak', where: 'North dock, Port Blue' },
  adventure: { public_id: 'sunset-paddle', title: 'Sunset paddle tour', where: 'Lagoon beach kiosk' },
};
/** A search finding the example listing above: a word and the start of another. */
const EXAMPLE_SEARCHES: Record<ListingKind, string> = { equipment: 'kayak north', adventure: 'sunset lag' };

function listingExamples(kind: KindDescriptor) {
  const { public_id, title, where } = EXAMPLE_LISTINGS[kind.kind];
  const attributes = Object.fromEntries(kind.attributes.map((a) => [a, EXAMPLE_ATTRIBUTES[a]]));
  const writable = {
    public_id,
    title,
    description: `${title} for a day on the water.`,
    [kind.locationField]: where,
    [kind.priceField]: '45.00',
    ...attributes,
    cancellation_policy: { free_cancellation_hours: 48, late_refund_percent: 50 },
    booking_cutoff_minutes: 120,
    extras: EXAMPLE_EXTRAS,
    questions: EXAMPLE_QUESTIONS,
    resources: [],
    is_active: true,
    category_id: 2,
  };
  const listing = {
    id: 5,
    ...writable,
    currency: 'usd',
    category: { id: 2, name: 'Kayaks', slug: 'kayaks' },
    vendor: { business_name: 'Blue Lagoon Watersports', slug: 'blue-lagoon-watersports' },
    created_at: '2026-05-01T09:30:00.000Z',
    updated_at: '2026-05-01T09:30:00.000Z',
    photos: [exampleOf(PhotoSchema)],
  };
  const required = ['public_id', 'title', 'category_id', kind.priceField, ...kind.requiredAttributes];
  return {
    listing,
    replace: writable,
    create: Object.fromEntries(
      Object.entries(writable).filter(([k]) => required.includes(k) || k === kind.locationField),
    ),
    patch: { [kind.priceField]: '50.00' },
  };
}

/** `equipment item` → `an equipment item`, for the document's summaries. */
export const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** `Equipment item` → `EquipmentItem`: the kind's name in the document's schema names. */
const schemaName = (kind: KindDescriptor) =>
  kind.noun.replace(/(^|\s+)(\w)/g, (_match, _space, letter: string) => letter.toUpperCase());

const pick = (kind: KindDescriptor, side: 'input' | 'output') =>
  Object.fromEntries(kind.attributes.map((a) => [a, ATTRIBUTES[a][side]]));

/** The `search` query parameter of the public lists and storefronts (its words: listing-search.ts). */
const searchQuery = (kind: KindDescriptor) =>
  Type.Optional(
    Type.String({
      maxLength: MAX_SEARCH_LENGTH,
      description:
        `words to find in title, description and ${kind.locationField}: a listing matches when every word ` +
        'starts one of its words, ignoring case and accents ("kay lag" finds "Sea kayak, Lagos"; "agua" ' +
        'finds "Água"). A word is a run of letters and digits; anything else (spaces, hyphens, apostrophes, ' +
        'other punctuation) separates words and is never read as query syntax. A blank search, or one of ' +
        `punctuation only, filters nothing. At most ${MAX_SEARCH_LENGTH} characters. Combines with every ` +
        'other filter, ordering and pagination.',
      examples: [EXAMPLE_SEARCHES[kind.kind]],
    }),
  );

const optional = (fields: Record<string, TSchema>, keep: Set<string> = new Set()) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, keep.has(k) ? s : Type.Optional(s)]));

function buildListingSchemas(kind: KindDescriptor) {
  const name = schemaName(kind);
  const examples = listingExamples(kind);
  const writable: Record<string, TSchema> = {
    public_id: Type.String({
      pattern: PUBLIC_ID_PATTERN,
      description: 'used in public paths; unique among all vendors (archived listings keep theirs)',
    }),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Text(10_000),
    [kind.locationField]: Text(300),
    [kind.priceField]: MoneyIn,
    ...pick(kind, 'input'),
    cancellation_policy: CANCELLATION_POLICY_IN,
    booking_cutoff_minutes: BOOKING_CUTOFF_MINUTES,
    extras: EXTRAS_IN,
    questions: QUESTIONS_IN,
    resources: RESOURCE_USES_IN,
    is_active: Type.Boolean({ description: 'inactive listings are shown only to their vendor' }),
    category_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  };
  // PUT needs every writable field the spec knows; the fields decisions §10 added may be left out, keeping
  // their stored value, so that a client written before them can still replace a listing.
  const requiredOnReplace = new Set(Object.keys(writable).filter((k) => !ADDED_LATER.has(k)));
  const requiredOnCreate = new Set([
    'public_id',
    'title',
    'category_id',
    kind.priceField,
    ...kind.requiredAttributes,
  ]);

  const listing = Named(
    name,
    Type.Object(
      {
        id: Type.Integer(),
        public_id: Type.String(),
        title: Type.String(),
        description: Type.String(),
        [kind.locationField]: Type.String(),
        [kind.priceField]: MoneyOut,
        currency: Type.String({
          description:
            "read-only: the vendor's currency (lower-case ISO 4217) for every amount of the listing and " +
            'its bookings; a currency in a request body is ignored',
        }),
        ...pick(kind, 'output'),
        cancellation_policy: Ref(CancellationPolicySchema),
        booking_cutoff_minutes: Type.Integer(),
        extras: EXTRAS_OUT,
        questions: QUESTIONS_OUT,
        resources: RESOURCE_USES_OUT,
        is_active: Type.Boolean(),
        category_id: Type.Integer(),
        category: Ref(CategoryRefSchema),
        vendor: Ref(VendorRefSchema),
        created_at: DateTimeOut,
        updated_at: DateTimeOut,
        photos: Type.Array(Ref(PhotoSchema), { description: 'in position order' }),
      },
      { examples: [examples.listing] },
    ),
  );

  const page = PaginatedSchema(listing);

  return {
    createBody: Type.Object(optional(writable, requiredOnCreate), { examples: [examples.create] }),
    replaceBody: Type.Object(optional(writable, requiredOnReplace), { examples: [examples.replace] }),
    patchBody: Type.Object(optional(writable), { examples: [examples.patch] }),
    listing,
    page,
    detail: Named(
      `${name}Detail`,
      Type.Object(
        {
          ...listing.properties,
          marketing_click_id: Type.Integer({ description: 'the click this view recorded' }),
          click_traffic_type: StringEnum(['organic', 'marketing']),
        },
        {
          description: `A ${kind.noun.toLowerCase()} as its detail view shows it, with the click the view recorded.`,
          examples: [{ ...examples.listing, marketing_click_id: 812, click_traffic_type: 'organic' }],
        },
      ),
    ),
    storefront: Named(
      `${name}Storefront`,
      Type.Object(
        { vendor: Ref(VendorProfileSchema), ...page.properties },
        {
          description: `A vendor's public profile and one page of its active ${kind.plural}.`,
          examples: [
            {
              vendor: exampleOf(VendorProfileSchema),
              count: 1,
              next: null,
              previous: null,
              results: [examples.listing],
            },
          ],
        },
      ),
    ),
    listQuery: Type.Object({
      category: Type.Optional(Type.String({ maxLength: 200, description: 'category id (digits) or slug' })),
      location: Type.Optional(
        Type.String({
          maxLength: 300,
          description: `case-insensitive substring of ${kind.locationField}`,
        }),
      ),
      vendor_slug: Type.Optional(Type.String({ maxLength: 200 })),
      min_price: Type.Optional(
        Type.String({ maxLength: 32, description: `inclusive, on ${kind.priceField}` }),
      ),
      max_price: Type.Optional(
        Type.String({ maxLength: 32, description: `inclusive, on ${kind.priceField}` }),
      ),
      available_from: Type.Optional(
        Type.String({
          maxLength: 64,
          description:
            'ISO 8601; with available_to: only listings bookable for that whole window, with at least one ' +
            'unit (equipment) or seat (shared adventure) free at every instant of it',
        }),
      ),
      available_to: Type.Optional(
        Type.String({ maxLength: 64, description: 'ISO 8601; with available_from, and after it' }),
      ),
      search: searchQuery(kind),
      ordering: Type.Optional(Type.Enum([...ORDERINGS], { description: 'default: newest first' })),
      ...PageQuery,
    }),
    storefrontQuery: Type.Object({
      search: searchQuery(kind),
      ordering: Type.Optional(Type.Enum([...ORDERINGS], { description: 'default: newest first' })),
      ...PageQuery,
    }),
    detailQuery: Type.Object({
      ...Object.fromEntries(
        TRACKING_PARAMS.map((p) => [p, Type.Optional(Type.String({ maxLength: MAX_TRACKING_LENGTH }))]),
      ),
      referrer: Type.Optional(
        Type.String({
          maxLength: MAX_TRACKING_LENGTH,
          description:
            "the referrer of the page that shows the listing (a browser page passes document.referrer, since its own API call's Referer is the page); given, even empty, it is stored instead of the Referer header; never a tracking parameter",
        }),
      ),
    }),
    publicIdParams: Type.Object({ public_id: Type.String({ minLength: 1, maxLength: 1000 }) }),
    slugParams: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 1000 }) }),
  };
}

export type ListingSchemas = ReturnType<typeof buildListingSchemas>;

// Built once per kind, at load: the named schemas must all exist when an app registers them
// (registerOpenApi), and a kind's routes are registered under more than one prefix.
const SCHEMAS_BY_KIND = new Map(Object.values(KINDS).map((kind) => [kind, buildListingSchemas(kind)]));

/** Every schema of one listing kind's routes. */
export function listingSchemas(kind: KindDescriptor): ListingSchemas {
  const schemas = SCHEMAS_BY_KIND.get(kind);
  if (!schemas) throw new Error(`no listing schemas for the kind ${kind.kind}`);
  return schemas;
}
