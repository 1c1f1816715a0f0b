import { Type } from 'typebox';
import { PaginatedSchema } from '../../http/pagination.ts';
import { DateTimeOut, MoneyIn, MoneyOut, Named, Nullable, Ref, StringEnum } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { PROMO_CODE_PATTERN } from './promo-codes.ts';

// Prices in the API (decisions §21): what a request chooses, the lines of a booking or a quote, the
// quote, and the vendor's promo codes.

const counts = (what: string, description: string) =>
  Type.Record(Type.String({ maxLength: 64 }), Type.Integer({ minimum: 0, maximum: 1_000_000 }), {
    maxProperties: 50,
    description: `${what} by code. ${description}`,
  });

/** The members a booking request (and a quote) adds for prices. */
export const PRICE_CHOICE_FIELDS = {
  participants: Type.Optional(
    Nullable(
      counts(
        'adventures with price_categories: participants',
        'Known codes, integers >= 0, sum >= 1 (else 400 on participants.<code> or participants); ' +
          'participants_count is then their sum. Required when the offering has categories; refused otherwise.',
      ),
    ),
  ),
  extras: Type.Optional(
    Nullable(
      counts('extras: quantities', "Known codes, 0 to the extra's max_quantity (else 400 on extras.<code>)."),
    ),
  ),
  promo_code: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 64,
        description:
          'a promo code of the listing’s vendor, any case. Unknown, inactive, not for this listing, ' +
          'outside its dates or with no redemption left: 400 on promo_code with the reason',
      }),
    ),
  ),
};

const LINE_EXAMPLES = [
  { kind: 'category', code: 'adult', label: 'Adult', quantity: 2, unit_price: '35.00', amount: '70.00' },
  {
    kind: 'category',
    code: 'child',
    label: 'Child (4-12)',
    quantity: 1,
    unit_price: '20.00',
    amount: '20.00',
  },
  {
    kind: 'extra',
    code: 'wetsuit',
    label: 'Wetsuit (1 day)',
    quantity: 3,
    unit_price: '5.00',
    amount: '15.00',
  },
  {
    kind: 'discount',
    code: 'SPRING10',
    label: 'Promo code SPRING10 (10% off)',
    quantity: 1,
    unit_price: '-10.50',
    amount: '-10.50',
  },
];

export const PriceLineSchema = Named(
  'PriceLine',
  Type.Object(
    {
      kind: StringEnum(['base', 'category', 'extra', 'discount'], {
        description:
          'base: units or participants × the unit price (no categories); category: one per price ' +
          'category chosen; extra: one per extra chosen; discount: the promo code, negative',
      }),
      code: Nullable(Type.String({ description: 'the category, extra or promo code; null for base' })),
      label: Type.String(),
      quantity: Type.Integer(),
      unit_price: MoneyOut,
      amount: MoneyOut,
    },
    { examples: [LINE_EXAMPLES[0]] },
  ),
);

export const PRICE_LINES = Type.Array(Ref(PriceLineSchema), {
  description:
    'the price as sold, fixed when the booking was requested (a later change of the listing’s prices ' +
    'never changes them); the amounts add up to total_price',
});

export const QuoteSchema = Named(
  'Quote',
  Type.Object(
    {
      currency: Type.String({ description: "the listing's (lower-case ISO 4217)" }),
      total_price: MoneyOut,
      price_lines: PRICE_LINES,
      is_available: Type.Boolean({ description: 'the request would be accepted now (no 409)' }),
      remaining: Type.Integer({ description: 'as the availability check answers it' }),
    },
    {
      description:
        'What POST bookings/request/ with the same body would cost now. Validated as a request is (the ' +
        'same 400s and 404s); creates nothing: no booking, no redemption, no click.',
      examples: [
        {
          currency: 'usd',
          total_price: '94.50',
          price_lines: LINE_EXAMPLES,
          is_available: true,
          remaining: 8,
        },
      ],
    },
  ),
);

// --- promo codes ---

const ListingKey = Type.Object({
  kind: StringEnum(['equipment', 'adventure']),
  id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
});

const PROMO_EXAMPLE = {
  id: 4,
  code: 'SPRING10',
  percent_off: 10,
  amount_off: null,
  valid_from: '2026-03-01T00:00:00.000Z',
  valid_until: '2026-06-01T00:00:00.000Z',
  max_redemptions: 50,
  redemptions: 12,
  listing_ids: null,
  is_active: true,
  created_at: '2026-02-20T10:00:00.000Z',
  updated_at: '2026-02-20T10:00:00.000Z',
};

export const PromoCodeSchema = Named(
  'PromoCode',
  Type.Object(
    {
      id: Type.Integer(),
      code: Type.String({ description: 'upper case; matched without regard to case' }),
      percent_off: Nullable(Type.Integer()),
      amount_off: Nullable(MoneyOut),
      valid_from: Nullable(DateTimeOut),
      valid_until: Nullable(DateTimeOut),
      max_redemptions: Nullable(Type.Integer()),
      redemptions: Type.Integer({
        description:
          'bookings with the code that are requested, approved or confirmed (and not expired): a ' +
          'declined, cancelled or expired booking gives its redemption back',
      }),
      listing_ids: Nullable(Type.Array(ListingKey)),
      is_active: Type.Boolean(),
      created_at: DateTimeOut,
      updated_at: DateTimeOut,
    },
    { examples: [PROMO_EXAMPLE] },
  ),
);
export const PromoCodePage = PaginatedSchema(PromoCodeSchema);

const promoFields = {
  code: Type.String({
    pattern: PROMO_CODE_PATTERN,
    description: '3-32 of A-Z 0-9 -, any case; unique per vendor',
  }),
  percent_off: Nullable(Type.Integer({ minimum: 1, maximum: 100 })),
  amount_off: Nullable(MoneyIn),
  valid_from: Nullable(Type.String({ maxLength: 64, description: 'ISO 8601; null: valid from now on' })),
  valid_until: Nullable(Type.String({ maxLength: 64, description: 'ISO 8601, exclusive; null: open' })),
  max_redemptions: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  listing_ids: Nullable(
    Type.Array(ListingKey, { maxItems: 200, description: "null: all the vendor's listings" }),
  ),
  is_active: Type.Boolean(),
};
const optionalAll = <T extends Record<string, import('typebox').TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, Type.Optional(s)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

export const CreatePromoCodeBody = Type.Object(
  { ...optionalAll(promoFields), code: promoFields.code },
  {
    description: 'Exactly one of percent_off (1-100) and amount_off (> 0); valid_until after valid_from.',
    examples: [{ code: 'SPRING10', percent_off: 10, max_redemptions: 50 }],
  },
);
export const UpdatePromoCodeBody = Type.Object(optionalAll(promoFields), {
  examples: [{ is_active: false }],
});
