import { Type } from 'typebox';
import { MoneyOut, Named, Ref, StringEnum } from '../../http/schemas.ts';

// The quote (decisions §21): what a booking request would cost, and whether it would be accepted now.
// Price lines are the §21 shape; today every quote has its base line only (categories, extras and promo
// codes add theirs).

const BASE_LINE_EXAMPLE = {
  kind: 'base',
  code: null,
  label: 'Paddleboard, 1 h 30 min',
  quantity: 2,
  unit_price: '25.00',
  amount: '50.00',
};

export const PriceLineSchema = Named(
  'PriceLine',
  Type.Object(
    {
      kind: StringEnum(['base', 'category', 'extra', 'discount']),
      code: Type.Union([Type.String(), Type.Null()], {
        description: 'the category or extra code; null for base',
      }),
      label: Type.String(),
      quantity: Type.Integer({ description: 'units (equipment) or participants (adventure)' }),
      unit_price: MoneyOut,
      amount: { ...MoneyOut, description: 'quantity × unit_price; negative for a discount' },
    },
    {
      description:
        "One line of a price. The base line's unit_price is one unit's price for the window (equipment: " +
        'the lowest of its rates and price_per_day, decisions §20) or the price per person.',
      examples: [BASE_LINE_EXAMPLE],
    },
  ),
);

export const QuoteSchema = Named(
  'Quote',
  Type.Object(
    {
      currency: Type.String({ description: "the listing's (its vendor's) currency" }),
      total_price: MoneyOut,
      price_lines: Type.Array(Ref(PriceLineSchema), { description: 'their amounts add up to total_price' }),
      is_available: Type.Boolean({ description: 'a request with this body would be accepted now' }),
      remaining: Type.Integer({ description: 'as the availability check counts it (0 when not bookable)' }),
    },
    {
      examples: [
        {
          currency: 'usd',
          total_price: '50.00',
          price_lines: [BASE_LINE_EXAMPLE],
          is_available: true,
          remaining: 4,
        },
      ],
    },
  ),
);
