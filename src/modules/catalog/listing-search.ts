// The words of a public list's `search`, cut as the search index cuts a listing's text
// (db/migrations/2026112503-listing-search.ts): a word is a run of letters and digits, anything else
// separates words, and case and accents are folded. A listing matches when each word of the search is the
// start of one of its words.

/** The longest `search` accepted (characters); a longer one is refused with a 400 on `search`. */
export const MAX_SEARCH_LENGTH = 200;

// the combining-mark blocks the index removes after Unicode decomposition
const COMBINING_MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * The search's words, folded and without repeats; none for a blank search or one of punctuation only
 * (no filter then). Each word holds only letters and digits, so no word can carry query syntax.
 */
export function searchWords(search: string | undefined): string[] {
  if (search === undefined) return [];
  const folded = search.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase();
  return [...new Set(folded.split(SEPARATORS).filter((word) => word !== ''))];
}
