import { describe, expect, it } from 'vitest';
import { containsPattern } from '../../src/modules/catalog/listings.repository.ts';

describe('containsPattern', () => {
  it('wraps the text in % wildcards', () => {
    expect(containsPattern('lagos')).toBe('%lagos%');
  });

  it("escapes LIKE's own wildcards and the escape character", () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\dir')).toBe('%c:\\\\dir%');
    expect(containsPattern('%_\\')).toBe('%\\%\\_\\\\%');
  });
});
