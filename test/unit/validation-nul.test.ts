import { describe, expect, it } from 'vitest';
import { validatorCompiler } from '../../src/http/validation.ts';

// Declared strings holding NUL are refused on both databases (PostgreSQL cannot store them), and the error
// names the field by its path, however deep (src/http/validation.ts).

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    contact: {
      type: 'object',
      properties: { emails: { type: 'array', items: { type: 'string' } } },
    },
    choice: { anyOf: [{ type: 'object', properties: { label: { type: 'string' } } }, { type: 'integer' }] },
    details: { type: 'object' },
  },
};
type Check = ((data: unknown) => boolean) & { errors?: { instancePath?: string; keyword?: string }[] | null };
const check = validatorCompiler({ schema, method: 'POST', url: '/', httpPart: 'body' }) as Check;

const nulPath = (data: unknown) => {
  const ok = check(data);
  return ok ? null : check.errors?.map((e) => `${e.keyword} ${e.instancePath}`);
};

describe('NUL characters in declared strings', () => {
  it('pass data without NUL, and NUL in a free-form object that is stored as escaped JSON', () => {
    expect(
      nulPath({ name: 'Ana', contact: { emails: ['a@x.io', 'b@x.io'] }, choice: { label: 'x' } }),
    ).toBeNull();
    expect(nulPath({ name: 'Ana', details: { note: 'a\u0000b' } })).toBeNull();
  });

  it('name the field at any depth: top level, in an array, in an anyOf branch', () => {
    expect(nulPath({ name: 'A\u0000na' })).toEqual(['nul /name']);
    expect(nulPath({ contact: { emails: ['a@x.io', 'b\u0000@x.io'] } })).toEqual(['nul /contact/emails/1']);
    expect(nulPath({ choice: { label: '\u0000' } })).toEqual(['nul /choice/label']);
  });

  it('report the first such field only', () => {
    expect(nulPath({ name: '\u0000', contact: { emails: ['\u0000'] } })).toEqual(['nul /name']);
  });
});
