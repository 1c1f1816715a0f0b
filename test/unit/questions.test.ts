import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnswerValue,
  answersErrors,
  MAX_ANSWER_LENGTH,
  normalizeAnswers,
  normalizeQuestions,
  type Question,
  questionsErrors,
} from '../../src/lib/questions.ts';

// decisions §23: a listing's questions and the answers a request must give.

const code = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const label = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '' && s.trim() === s);
const choices = fc.uniqueArray(label, { minLength: 1, maxLength: 6 });

const question: fc.Arbitrary<Question> = fc
  .record({
    code,
    label,
    kind: fc.constantFrom('text', 'number', 'choice', 'boolean') as fc.Arbitrary<Question['kind']>,
    choices,
    required: fc.boolean(),
    per: fc.constantFrom('booking', 'participant') as fc.Arbitrary<Question['per']>,
  })
  .map((q) => ({ ...q, choices: q.kind === 'choice' ? q.choices : [] }));

const questions = fc.uniqueArray(question, { maxLength: 8, selector: (q) => q.code });

/** A valid value for the question (never blank, so a required one is answered). */
const valueFor = (q: Question): fc.Arbitrary<AnswerValue> => {
  switch (q.kind) {
    case 'text':
      return fc.string({ minLength: 1, maxLength: MAX_ANSWER_LENGTH }).filter((s) => s.trim() !== '');
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'choice':
      return fc.constantFrom(...q.choices);
  }
};

/** Valid answers to every question, `count` per participant question. */
const answersFor = (qs: Question[], count: number) =>
  fc.record(
    Object.fromEntries(
      qs.map((q) => [
        q.code,
        q.per === 'booking' ? valueFor(q) : fc.array(valueFor(q), { minLength: count, maxLength: count }),
      ]),
    ),
  );

const world = fc
  .tuple(questions, fc.integer({ min: 1, max: 5 }))
  .chain(([qs, count]) => fc.tuple(fc.constant(qs), fc.constant(count), answersFor(qs, count)));

/** A value of the wrong kind for the question. */
const wrongKind = (q: Question): AnswerValue =>
  q.kind === 'number' ? 'seven' : q.kind === 'boolean' ? 1 : 7;

describe('questions', () => {
  it('accept what a vendor may give, as stored; the list validates again unchanged', () => {
    fc.assert(
      fc.property(questions, (qs) => {
        expect(questionsErrors(qs)).toEqual({});
        const stored = normalizeQuestions(qs as unknown as Record<string, unknown>[]);
        expect(stored).toEqual(qs);
        expect(questionsErrors(stored)).toEqual({});
      }),
    );
  });

  it('default to optional and per booking, and name every bad member', () => {
    const [q] = normalizeQuestions([{ code: 'size', label: ' Size ', kind: 'text' }]);
    expect(q).toEqual({
      code: 'size',
      label: 'Size',
      kind: 'text',
      choices: [],
      required: false,
      per: 'booking',
    });
    expect(
      questionsErrors([
        { code: 'a', label: 'A', kind: 'choice', choices: [] },
        { code: 'a', label: '', kind: 'essay', per: 'family', required: 'yes' },
        { code: 'B!', label: 'B', kind: 'text', choices: ['x'] },
        { code: 'c', label: 'C', kind: 'choice', choices: ['x', 'x'] },
        'not an object',
      ]),
    ).toEqual({
      'questions.0.choices': 'Enter 1 to 50 choices.',
      'questions.1.code': 'Another question already has the code a.',
      'questions.1.label': 'Enter a label of 1 to 200 characters.',
      'questions.1.kind': 'Enter text, number, choice or boolean.',
      'questions.1.required': 'Enter a boolean.',
      'questions.1.per': 'Enter booking or participant.',
      'questions.2.code': 'Enter 1 to 32 of a-z, 0-9, "_" and "-".',
      'questions.2.choices': 'Only a choice question has choices.',
      'questions.3.choices': 'Choices must not repeat.',
      'questions.4': 'Each question must be an object.',
    });
    expect(
      questionsErrors(Array.from({ length: 21 }, (_, i) => ({ code: `q${i}`, label: 'Q', kind: 'text' }))),
    ).toEqual({ questions: 'At most 20 questions.' });
    expect(questionsErrors('cert')).toEqual({ questions: 'Enter a list.' });
  });
});

describe('answers', () => {
  it('valid answers pass and are stored as given', () => {
    fc.assert(
      fc.property(world, ([qs, count, answers]) => {
        expect(answersErrors(qs, answers, count)).toEqual({});
        const stored = normalizeAnswers(qs, answers);
        expect(Object.keys(stored).sort()).toEqual(qs.map((q) => q.code).sort());
        for (const q of qs) expect(stored[q.code]).toEqual(answers[q.code]);
      }),
    );
  });

  it('one broken answer is refused on answers.<its code>, and only there', () => {
    fc.assert(
      fc.property(
        world.filter(([qs]) => qs.length > 0),
        fc.nat(),
        fc.constantFrom('kind', 'missing', 'count', 'choice'),
        ([qs, count, answers], pick, breakage) => {
          const q = qs[pick % qs.length];
          const broken: Record<string, unknown> = { ...answers };
          const bad = (v: unknown) =>
            q.per === 'booking' ? v : [...(answers[q.code] as unknown[]).slice(1), v];
          if (breakage === 'kind') broken[q.code] = bad(wrongKind(q));
          else if (breakage === 'choice')
            broken[q.code] = bad(q.kind === 'choice' ? `${q.choices.join('')}?` : wrongKind(q));
          else if (breakage === 'missing') {
            if (!q.required) return;
            delete broken[q.code];
          } else {
            if (q.per === 'booking') return;
            broken[q.code] = [...(answers[q.code] as unknown[]), (answers[q.code] as unknown[])[0]];
          }
          expect(Object.keys(answersErrors(qs, broken, count))).toEqual([`answers.${q.code}`]);
        },
      ),
    );
  });

  it('says what is wrong, participant by participant', () => {
    const qs: Question[] = [
      {
        code: 'cert',
        label: 'Cert',
        kind: 'choice',
        choices: ['OW', 'AOW'],
        required: true,
        per: 'participant',
      },
      { code: 'notes', label: 'Notes', kind: 'text', choices: [], required: false, per: 'booking' },
      { code: 'swim', label: 'Can swim', kind: 'boolean', choices: [], required: true, per: 'booking' },
    ];
    expect(answersErrors(qs, { cert: ['OW', 'AOW'], swim: false }, 2)).toEqual({});
    expect(answersErrors(qs, { cert: ['OW'], swim: true }, 2)).toEqual({
      'answers.cert': 'Enter a list of 2 answers, one per participant.',
    });
    expect(answersErrors(qs, { cert: ['OW', 'Expert'], swim: true }, 2)).toEqual({
      'answers.cert': 'Enter one of: OW, AOW for participant 2.',
    });
    expect(answersErrors(qs, { cert: ['OW', ''], swim: true }, 2)).toEqual({
      'answers.cert': 'An answer for participant 2 is required.',
    });
    expect(answersErrors(qs, { cert: ['OW'], notes: 'x'.repeat(501), age: 3 }, 1)).toEqual({
      'answers.notes': 'At most 500 characters.',
      'answers.swim': 'An answer is required.',
      'answers.age': 'The listing asks no question with this code.',
    });
    expect(answersErrors(qs, [1, 2], 1)).toEqual({ answers: 'Enter an object of answers by question code.' });
    expect(answersErrors([], undefined, 1)).toEqual({});
    // a blank optional answer is left out when stored; a participant without one keeps a null
    const optional: Question[] = [{ ...qs[1], per: 'participant' }];
    expect(normalizeAnswers(optional, { notes: ['', 'vegan'] })).toEqual({ notes: [null, 'vegan'] });
    expect(normalizeAnswers(qs.slice(1, 2), { notes: '  ' })).toEqual({});
    // a code every object inherits is no answer until given
    const inherited: Question[] = ['constructor', 'toString'].map((c) => ({ ...qs[1], code: c }));
    expect(answersErrors(inherited, {}, 1)).toEqual({});
    expect(normalizeAnswers(inherited, {})).toEqual({});
  });
});
