import { MAX_ID } from './limits.ts';
import { formatMoney, parseMoney } from './money.ts';

// A listing's price settings (decisions §21) as a vendor gives them and as they are stored: price
// categories (adventures: adult, child, ...) and extras (both kinds: a wetsuit per day, a GoPro per
// booking). Pure: the catalog validates a listing write with it; the price rule itself lives in
// src/modules/booking/pricing.ts.

export const MAX_PRICE_CATEGORIES = 10;
export const MAX_EXTRAS = 20;
export const MAX_EXTRA_QUANTITY = 1000;
export const MAX_LABEL_LENGTH = 100;
/** a category's or an extra's code, as a request names it (`participants.child`, `extras.wetsuit`) */
export const CHOICE_CODE_PATTERN = '^[a-z0-9_-]{1,32}$';
const CHOICE_CODE = new RegExp(CHOICE_CODE_PATTERN);
export const EXTRA_PER = ['booking', 'day'] as const;
export type ExtraPer = (typeof EXTRA_PER)[number];

export interface PriceCategory {
  code: string;
  label: string;
  priceCents: number;
}

export interface Extra {
  code: string;
  label: string;
  priceCents: number;
  per: ExtraPer;
  maxQuantity: number;
  /** a §22 resource each chosen unit takes one of while the booking holds; null: none */
  resourceId: number | null;
}

const MONEY_MESSAGE = 'Enter a valid amount with at most two decimals, below 100000000.00.';

type Member = Record<string, unknown>;

/** What is wrong with the common members of a list of categories or extras, by member (`extras.1.code`). */
function listErrors(
  value: unknown,
  field: string,
  max: number,
  memberErrors: (item: Member, at: string, errors: Record<string, string>) => void,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!Array.isArray(value)) return { [field]: 'Enter a list.' };
  if (value.length > max) errors[field] = `At most ${max}.`;
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    const at = `${field}.${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors[at] = 'Each member must be an object.';
      continue;
    }
    const { code, label, price } = item as Member;
    if (typeof code !== 'string' || !CHOICE_CODE.test(code))
      errors[`${at}.code`] = 'Enter 1 to 32 of a-z, 0-9, "_" and "-".';
    else if (seen.has(code)) errors[`${at}.code`] = `Another member already has the code ${code}.`;
    else seen.add(code);
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_LABEL_LENGTH)
      errors[`${at}.label`] = `Enter a label of 1 to ${MAX_LABEL_LENGTH} characters.`;
    if (parseMoney(price) === null) errors[`${at}.price`] = MONEY_MESSAGE;
    memberErrors(item as Member, at, errors);
  }
  return errors;
}

/** What is wrong with `price_categories` as a request gives it, by member. */
export const priceCategoriesErrors = (value: unknown, field = 'price_categories') =>
  listErrors(value, field, MAX_PRICE_CATEGORIES, () => {});

/** What is wrong with `extras` as a request gives it, by member. */
export const extrasErrors = (value: unknown, field = 'extras') =>
  listErrors(value, field, MAX_EXTRAS, (item, at, errors) => {
    if (!EXTRA_PER.includes(item.per as ExtraPer)) errors[`${at}.per`] = 'Enter booking or day.';
    const max = item.max_quantity;
    if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_EXTRA_QUANTITY)
      errors[`${at}.max_quantity`] = `Enter an integer from 1 to ${MAX_EXTRA_QUANTITY}.`;
    const id = item.resource_id;
    if (
      id !== undefined &&
      id !== null &&
      (!Number.isInteger(id) || (id as number) < 1 || (id as number) > MAX_ID)
    )
      errors[`${at}.resource_id`] = 'Enter the id of one of your resources, or null.';
  });

/** Valid categories (priceCategoriesErrors found nothing), as stored. */
export const normalizePriceCategories = (value: readonly Member[]): PriceCategory[] =>
  value.map((c) => ({
    code: c.code as string,
    label: (c.label as string).trim(),
    priceCents: parseMoney(c.price) as number,
  }));

/** Valid extras (extrasErrors found nothing), as stored. */
export const normalizeExtras = (value: readonly Member[]): Extra[] =>
  value.map((e) => ({
    code: e.code as string,
    label: (e.label as string).trim(),
    priceCents: parseMoney(e.price) as number,
    per: e.per as ExtraPer,
    maxQuantity: e.max_quantity as number,
    resourceId: (e.resource_id as number | null | undefined) ?? null,
  }));

/** Stored categories or extras (JSON text of the normalized lists). */
export const parsePriceCategories = (text: string): PriceCategory[] => JSON.parse(text);
export const parseExtras = (text: string): Extra[] => JSON.parse(text);

/** As the API shows them. */
export const priceCategoriesOut = (list: readonly PriceCategory[]) =>
  list.map((c) => ({ code: c.code, label: c.label, price: formatMoney(c.priceCents) }));
export const extrasOut = (list: readonly Extra[]) =>
  list.map((e) => ({
    code: e.code,
    label: e.label,
    price: formatMoney(e.priceCents),
    per: e.per,
    max_quantity: e.maxQuantity,
    resource_id: e.resourceId,
  }));
