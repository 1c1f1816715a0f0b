import { Type } from 'typebox';
import { Named, Ref, StringEnum } from '../../http/schemas.ts';
import {
  MAX_CHOICE_LENGTH,
  MAX_CHOICES,
  MAX_QUESTION_LABEL,
  MAX_QUESTIONS,
  QUESTION_CODE_PATTERN,
  QUESTION_KINDS,
  QUESTION_PER,
} from '../../lib/questions.ts';

// A listing's questions (decisions §23) in the API. The service checks them again (src/lib/questions.ts),
// naming the member on failure (`questions.1.choices`).

export const EXAMPLE_QUESTIONS = [
  {
    code: 'cert',
    label: 'Certification level',
    kind: 'choice',
    choices: ['None', 'Open Water', 'Advanced'],
    required: true,
    per: 'participant',
  },
  { code: 'wetsuit', label: 'Wetsuit size', kind: 'text', choices: [], required: false, per: 'participant' },
  { code: 'allergies', label: 'Allergies', kind: 'text', choices: [], required: false, per: 'booking' },
];

const fields = {
  code: Type.String({ pattern: QUESTION_CODE_PATTERN, description: 'the key of its answer; unique' }),
  label: Type.String({ minLength: 1, maxLength: MAX_QUESTION_LABEL, description: 'what customers see' }),
  kind: StringEnum(QUESTION_KINDS, {
    description: 'text (at most 500 characters), number, choice (one of choices) or boolean',
  }),
  choices: Type.Array(Type.String({ minLength: 1, maxLength: MAX_CHOICE_LENGTH }), {
    maxItems: MAX_CHOICES,
    description: `choice questions only: 1 to ${MAX_CHOICES} answers, no repeats; [] for the other kinds`,
  }),
  required: Type.Boolean({ description: 'a request without an answer is a 400 (default false)' }),
  per: StringEnum(QUESTION_PER, {
    description:
      'booking (default): one answer; participant: a list with one answer per participant (adventures) ' +
      'or per unit (equipment)',
  }),
};

export const QuestionSchema = Named('Question', Type.Object(fields, { examples: [EXAMPLE_QUESTIONS[0]] }));

export const QUESTIONS_IN = Type.Array(
  Type.Object({
    ...fields,
    choices: Type.Optional(fields.choices),
    required: Type.Optional(fields.required),
    per: Type.Optional(fields.per),
  }),
  {
    maxItems: MAX_QUESTIONS,
    description:
      'what a booking request must answer (decisions §23), given as answers {"code": value} (per booking) ' +
      'or {"code": [value, ...]} (per participant); [] (default): none. Changing them never changes bookings.',
  },
);
export const QUESTIONS_OUT = Type.Array(Ref(QuestionSchema));
