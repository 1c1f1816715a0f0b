import { type TSchema, Type } from 'typebox';
import { PageQuery, PaginatedSchema } from '../../http/pagination.ts';
import { DateTimeOut, MoneyIn, MoneyOut, Text } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { VendorProfileSchema } from '../accounts/index.ts';
import { CategoryRefSchema } from './categories.schemas.ts';
import type { KindDescriptor, ListingAttribute } from './kinds.ts';

// Every listing schema is built from the kind descriptor, so both kinds share one definition.

export const PUBLIC_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const MAX_DETAILS_BYTES = 16 * 1024;

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

export const VendorRefSchema = Type.Object({ business_name: Type.String(), slug: Type.String() });

const ATTRIBUTES: Record<ListingAttribute, { input: TSchema; output: TSchema }> = {
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
  duration_minutes: {
    input: Type.Integer({ minimum: 1, maximum: MAX_ID }),
    output: Type.Integer(),
  },
  capacity: {
    input: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'participants per booking at most' }),
    output: Type.Integer(),
  },
};

const pick = (kind: KindDescriptor, side: 'input' | 'output') =>
  Object.fromEntries(kind.attributes.map((a) => [a, ATTRIBUTES[a][side]]));

const optional = (fields: Record<string, TSchema>, keep: Set<string> = new Set()) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, keep.has(k) ? s : Type.Optional(s)]));

export function listingSchemas(kind: KindDescriptor) {
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
    is_active: Type.Boolean({ description: 'inactive listings are shown only to their vendor' }),
    category_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  };
  const requiredOnCreate = new Set([
    'public_id',
    'title',
    'category_id',
    kind.priceField,
    ...kind.requiredAttributes,
  ]);

  const listing = Type.Object({
    id: Type.Integer(),
    public_id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    [kind.locationField]: Type.String(),
    [kind.priceField]: MoneyOut,
    ...pick(kind, 'output'),
    is_active: Type.Boolean(),
    category_id: Type.Integer(),
    category: CategoryRefSchema,
    vendor: VendorRefSchema,
    created_at: DateTimeOut,
    updated_at: DateTimeOut,
  });

  const page = PaginatedSchema(listing);

  return {
    createBody: Type.Object(optional(writable, requiredOnCreate)),
    replaceBody: Type.Object(writable),
    patchBody: Type.Object(optional(writable)),
    listing,
    page,
    detail: Type.Object({
      ...listing.properties,
      marketing_click_id: Type.Integer({ description: 'the click this view recorded' }),
      click_traffic_type: Type.Enum(['organic', 'marketing']),
    }),
    storefront: Type.Object({ vendor: VendorProfileSchema, ...page.properties }),
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
          description: 'ISO 8601; with available_to: only listings bookable for that whole window',
        }),
      ),
      available_to: Type.Optional(
        Type.String({ maxLength: 64, description: 'ISO 8601; with available_from, and after it' }),
      ),
      ordering: Type.Optional(Type.Enum([...ORDERINGS], { description: 'default: newest first' })),
      ...PageQuery,
    }),
    storefrontQuery: Type.Object({
      ordering: Type.Optional(Type.Enum([...ORDERINGS], { description: 'default: newest first' })),
      ...PageQuery,
    }),
    detailQuery: Type.Object(
      Object.fromEntries(
        TRACKING_PARAMS.map((p) => [p, Type.Optional(Type.String({ maxLength: MAX_TRACKING_LENGTH }))]),
      ),
    ),
    publicIdParams: Type.Object({ public_id: Type.String({ minLength: 1, maxLength: 1000 }) }),
    slugParams: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 1000 }) }),
  };
}

export type ListingSchemas = ReturnType<typeof listingSchemas>;
