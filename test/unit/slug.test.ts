import { describe, expect, it } from 'vitest';
import { firstFreeSlug, slugify } from '../../src/modules/accounts/slug.ts';

describe('slugify', () => {
  it.each([
    ['Algarve Kayaks & Co.', 'algarve-kayaks-co'],
    ['Ría Formosa Boats', 'ria-formosa-boats'],
    ['  --Surf__Shack--  ', 'surf-shack'],
    ['Ærø Sailing', 'r-sailing'],
    ['日本のダイビング', 'vendor'],
    ['!!!', 'vendor'],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('keeps slugs to lower-case ASCII letters, digits and single hyphens', () => {
    expect(slugify(`${'Long Name '.repeat(30)}`)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugify(`${'Long Name '.repeat(30)}`).length).toBeLessThanOrEqual(80);
  });
});

describe('firstFreeSlug', () => {
  it('adds -2, -3, ... on collision', () => {
    expect(firstFreeSlug('kayaks', [])).toBe('kayaks');
    expect(firstFreeSlug('kayaks', ['kayaks'])).toBe('kayaks-2');
    expect(firstFreeSlug('kayaks', ['kayaks', 'kayaks-2', 'kayaks-4'])).toBe('kayaks-3');
  });
});
