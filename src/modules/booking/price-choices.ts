import { invalidFields } from '../../http/errors.ts';
import type { PriceChoices, PriceTerms } from './pricing.ts';

// What a booking request (or a quote) chooses of a listing's prices (decisions §21): participants by
// category and extras by code, checked against the listing. Every refusal is a 400 naming the member
// (`participants.child`, `extras.wetsuit`), all of them in one answer.

export interface ChoiceInput {
  participants_count?: number | null;
  participants?: Readonly<Record<string, number>> | null;
  extras?: Readonly<Record<string, number>> | null;
}

/** The listing's price categories are in use: an adventure with at least one. */
export const pricedByCategory = (listing: Pick<PriceTerms, 'kind' | 'priceCategories'>) =>
  listing.kind === 'adventure' && listing.priceCategories.length > 0;

function participantsErrors(
  listing: PriceTerms,
  input: ChoiceInput,
  errors: Record<string, string>,
): number | undefined {
  const given = input.participants ?? null;
  if (!pricedByCategory(listing)) {
    if (given !== null)
      errors.participants =
        listing.kind === 'equipment'
          ? 'Equipment items are booked by quantity, not participants.'
          : 'This offering has no price categories: give participants_count.';
    return undefined;
  }
  if (given === null) {
    const codes = listing.priceCategories.map((c) => c.code).join(', ');
    errors.participants = `Give the participants by category (${codes}), such as {"${listing.priceCategories[0].code}": 2}.`;
    return undefined;
  }
  const known = new Set(listing.priceCategories.map((c) => c.code));
  let sum = 0;
  for (const [code, count] of Object.entries(given)) {
    if (!known.has(code)) errors[`participants.${code}`] = `Unknown price category: ${code}.`;
    else sum += count;
  }
  if (sum < 1 && Object.keys(errors).length === 0) errors.participants = 'Give at least one participant.';
  const count = input.participants_count ?? null;
  if (count !== null && count !== sum)
    errors.participants_count = `participants_count (${count}) must equal the participants by category (${sum}), or be left out.`;
  return sum;
}

function extrasErrors(listing: PriceTerms, input: ChoiceInput, errors: Record<string, string>) {
  const byCode = new Map(listing.extras.map((e) => [e.code, e]));
  for (const [code, quantity] of Object.entries(input.extras ?? {})) {
    const extra = byCode.get(code);
    if (!extra) errors[`extras.${code}`] = `Unknown extra: ${code}.`;
    else if (quantity > extra.maxQuantity)
      errors[`extras.${code}`] = `Ensure this is between 0 and ${extra.maxQuantity}.`;
  }
}

/**
 * The request's choices of the listing's prices, and the participants_count they make (the sum of the
 * categories when the listing prices by category; else the one given). A 400 naming every bad member.
 */
export function priceChoicesOf(
  listing: PriceTerms,
  input: ChoiceInput,
): {
  choices: Omit<PriceChoices, 'participants' | 'quantity'>;
  participantsCount: number | null | undefined;
} {
  const errors: Record<string, string> = {};
  const sum = participantsErrors(listing, input, errors);
  extrasErrors(listing, input, errors);
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
  const categorized = pricedByCategory(listing);
  return {
    choices: { categories: categorized ? { ...input.participants } : null, extras: { ...input.extras } },
    participantsCount: categorized ? sum : input.participants_count,
  };
}
