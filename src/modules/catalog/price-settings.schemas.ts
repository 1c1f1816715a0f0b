import { Type } from 'typebox';
import { MoneyIn, MoneyOut, Named, Nullable, Ref, StringEnum } from '../../http/schemas.ts';
import {
  CHOICE_CODE_PATTERN,
  EXTRA_PER,
  MAX_EXTRA_QUANTITY,
  MAX_EXTRAS,
  MAX_LABEL_LENGTH,
  MAX_PRICE_CATEGORIES,
} from '../../lib/price-settings.ts';

// A listing's price categories and extras (decisions §21) in the API. The service checks them again
// (src/lib/price-settings.ts), naming the member on failure (`extras.1.max_quantity`).

const code = (what: string) =>
  Type.String({ pattern: CHOICE_CODE_PATTERN, description: `the ${what}'s code, unique in the list` });
const label = Type.String({ minLength: 1, maxLength: MAX_LABEL_LENGTH, description: 'what customers see' });

export const PriceCategorySchema = Named(
  'PriceCategory',
  Type.Object(
    { code: code('category'), label, price: MoneyOut },
    { examples: [{ code: 'child', label: 'Child (4-12)', price: '20.00' }] },
  ),
);

const EXTRA_EXAMPLE = {
  code: 'wetsuit',
  label: 'Wetsuit',
  price: '5.00',
  per: 'day',
  max_quantity: 10,
  resource_id: null,
};
const extraFields = {
  per: StringEnum(EXTRA_PER, {
    description: 'booking: quantity × price; day: quantity × price × the rental days (ceil(D / 1440))',
  }),
  max_quantity: Type.Integer({ minimum: 1, maximum: MAX_EXTRA_QUANTITY }),
  resource_id: Nullable(
    Type.Integer({
      minimum: 1,
      description:
        'one of your resources (decisions §22): each chosen unit takes one of it while the booking holds; null: none',
    }),
  ),
};

export const ExtraSchema = Named(
  'Extra',
  Type.Object({ code: code('extra'), label, price: MoneyOut, ...extraFields }, { examples: [EXTRA_EXAMPLE] }),
);

export const PRICE_CATEGORIES_IN = Type.Array(
  Type.Object({ code: code('category'), label, price: MoneyIn }),
  {
    maxItems: MAX_PRICE_CATEGORIES,
    description:
      'adventures: price categories (decisions §21); [] (default): every participant pays price_per_person. ' +
      'With categories a request gives participants by code ({"adult": 2, "child": 1}) and each costs its ' +
      'category\'s price; price_per_person stays the "from" price in lists. Changing them never changes bookings.',
  },
);
export const PRICE_CATEGORIES_OUT = Type.Array(Ref(PriceCategorySchema));

export const EXTRAS_IN = Type.Array(
  Type.Object({
    code: code('extra'),
    label,
    price: MoneyIn,
    ...extraFields,
    resource_id: Type.Optional(extraFields.resource_id),
  }),
  {
    maxItems: MAX_EXTRAS,
    description:
      'extras a request may add by code ({"wetsuit": 2}, 0 to max_quantity); [] (default): none. ' +
      'Changing them never changes bookings.',
  },
);
export const EXTRAS_OUT = Type.Array(Ref(ExtraSchema));

export const EXAMPLE_PRICE_CATEGORIES = [
  { code: 'adult', label: 'Adult', price: '35.00' },
  { code: 'child', label: 'Child (4-12)', price: '20.00' },
];
export const EXAMPLE_EXTRAS = [
  EXTRA_EXAMPLE,
  { code: 'gopro', label: 'GoPro', price: '15.00', per: 'booking', max_quantity: 2, resource_id: null },
];
