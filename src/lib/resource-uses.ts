import { MAX_ID } from './limits.ts';

// A listing's uses of shared resources (decisions §22): a JSON list of {resourceId, per, amount} on the
// listing. What the ids name (the vendor's own resources) is checked by the catalog against the database;
// the shape here.

export const RESOURCE_PER = ['booking', 'participant', 'unit', 'departure'] as const;
export type ResourcePer = (typeof RESOURCE_PER)[number];
export const MAX_RESOURCE_USES = 10;
export const MAX_RESOURCE_AMOUNT = 1000;

export interface ResourceUse {
  resourceId: number;
  per: ResourcePer;
  amount: number;
}

/** What is wrong with `resources` as a vendor gives it, by member (`resources.0.resource_id`). */
export function resourceUsesErrors(value: unknown, field = 'resources'): Record<string, string> {
  if (!Array.isArray(value)) return { [field]: 'Enter a list.' };
  const errors: Record<string, string> = {};
  if (value.length > MAX_RESOURCE_USES) errors[field] = `At most ${MAX_RESOURCE_USES}.`;
  for (const [i, item] of value.entries()) {
    const at = `${field}.${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors[at] = 'Each member must be an object.';
      continue;
    }
    const { resource_id: id, per, amount } = item as Record<string, unknown>;
    if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > MAX_ID)
      errors[`${at}.resource_id`] = 'Enter the id of one of your resources.';
    if (!RESOURCE_PER.includes(per as ResourcePer))
      errors[`${at}.per`] = `Enter one of ${RESOURCE_PER.join(', ')}.`;
    if (!Number.isInteger(amount) || (amount as number) < 1 || (amount as number) > MAX_RESOURCE_AMOUNT)
      errors[`${at}.amount`] = `Enter an integer from 1 to ${MAX_RESOURCE_AMOUNT}.`;
  }
  return errors;
}

/** Valid uses (resourceUsesErrors found nothing), as stored. */
export const normalizeResourceUses = (value: readonly Record<string, unknown>[]): ResourceUse[] =>
  value.map((u) => ({
    resourceId: u.resource_id as number,
    per: u.per as ResourcePer,
    amount: u.amount as number,
  }));

export const parseResourceUses = (text: string): ResourceUse[] => JSON.parse(text);

export const resourceUsesOut = (list: readonly ResourceUse[]) =>
  list.map((u) => ({ resource_id: u.resourceId, per: u.per, amount: u.amount }));
