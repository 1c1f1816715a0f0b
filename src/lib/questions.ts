// A listing's questions and a request's answers (decisions §23): the one rule of what a question list may
// be and what answers a request must give. Pure: the catalog checks a listing write with questionsErrors,
// a booking request and a quote check their answers with answersErrors, and the web app asks the
// questions the API lists.

export const MAX_QUESTIONS = 20;
export const MAX_CHOICES = 50;
export const MAX_ANSWER_LENGTH = 500;
export const MAX_QUESTION_LABEL = 200;
export const MAX_CHOICE_LENGTH = 100;
export const QUESTION_CODE_PATTERN = '^[a-z0-9_-]{1,32}$';
const QUESTION_CODE = new RegExp(QUESTION_CODE_PATTERN);
export const QUESTION_KINDS = ['text', 'number', 'choice', 'boolean'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const QUESTION_PER = ['booking', 'participant'] as const;
export type QuestionPer = (typeof QUESTION_PER)[number];

export interface Question {
  code: string;
  label: string;
  kind: QuestionKind;
  /** the allowed answers of a choice question; [] for the other kinds */
  choices: string[];
  required: boolean;
  /** booking: one answer; participant: one per participant (adventures) or per unit (equipment) */
  per: QuestionPer;
}

export type AnswerValue = string | number | boolean;
/** Answers as stored and shown: by code, one value (per booking) or a list (per participant). */
export type Answers = Record<string, AnswerValue | (AnswerValue | null)[]>;

type Member = Record<string, unknown>;
const isObject = (value: unknown): value is Member =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with `questions` as a vendor gives them, by member (`questions.1.choices`). */
export function questionsErrors(value: unknown, field = 'questions'): Record<string, string> {
  if (!Array.isArray(value)) return { [field]: 'Enter a list.' };
  const errors: Record<string, string> = {};
  if (value.length > MAX_QUESTIONS) errors[field] = `At most ${MAX_QUESTIONS} questions.`;
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    const at = `${field}.${i}`;
    if (!isObject(item)) {
      errors[at] = 'Each question must be an object.';
      continue;
    }
    const { code, label, kind, choices, required, per } = item;
    if (typeof code !== 'string' || !QUESTION_CODE.test(code))
      errors[`${at}.code`] = 'Enter 1 to 32 of a-z, 0-9, "_" and "-".';
    else if (seen.has(code)) errors[`${at}.code`] = `Another question already has the code ${code}.`;
    else seen.add(code);
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_QUESTION_LABEL)
      errors[`${at}.label`] = `Enter a label of 1 to ${MAX_QUESTION_LABEL} characters.`;
    if (!QUESTION_KINDS.includes(kind as QuestionKind))
      errors[`${at}.kind`] = 'Enter text, number, choice or boolean.';
    const choiceError = choicesError(kind, choices);
    if (choiceError) errors[`${at}.choices`] = choiceError;
    if (required !== undefined && typeof required !== 'boolean')
      errors[`${at}.required`] = 'Enter a boolean.';
    if (per !== undefined && !QUESTION_PER.includes(per as QuestionPer))
      errors[`${at}.per`] = 'Enter booking or participant.';
  }
  return errors;
}

function choicesError(kind: unknown, choices: unknown): string | undefined {
  if (kind !== 'choice')
    return choices === undefined || (Array.isArray(choices) && choices.length === 0)
      ? undefined
      : 'Only a choice question has choices.';
  if (!Array.isArray(choices) || choices.length < 1 || choices.length > MAX_CHOICES)
    return `Enter 1 to ${MAX_CHOICES} choices.`;
  const texts = choices.map((c) => (typeof c === 'string' ? c.trim() : ''));
  if (texts.some((c) => c === '' || c.length > MAX_CHOICE_LENGTH))
    return `Each choice is a text of 1 to ${MAX_CHOICE_LENGTH} characters.`;
  if (new Set(texts).size !== texts.length) return 'Choices must not repeat.';
  return undefined;
}

/** Valid questions (questionsErrors found nothing), as stored. */
export const normalizeQuestions = (value: readonly Member[]): Question[] =>
  value.map((q) => ({
    code: q.code as string,
    label: (q.label as string).trim(),
    kind: q.kind as QuestionKind,
    choices: q.kind === 'choice' ? (q.choices as string[]).map((c) => c.trim()) : [],
    required: q.required === true,
    per: (q.per as QuestionPer | undefined) ?? 'booking',
  }));

/** Stored questions (JSON text of the normalized list). */
export const parseQuestions = (text: string): Question[] => JSON.parse(text);

/** As the API shows them. */
export const questionsOut = (list: readonly Question[]) =>
  list.map((q) => ({
    code: q.code,
    label: q.label,
    kind: q.kind,
    choices: q.choices,
    required: q.required,
    per: q.per,
  }));

/** A member's own value: a code such as `constructor` must not read what every object inherits. */
const own = (object: Member, code: string) => (Object.hasOwn(object, code) ? object[code] : undefined);

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** What is wrong with one value for a question, or undefined; a missing value is judged by the caller. */
function valueError(question: Question, value: unknown): string | undefined {
  switch (question.kind) {
    case 'text':
      if (typeof value !== 'string') return 'Enter a text.';
      return value.length > MAX_ANSWER_LENGTH ? `At most ${MAX_ANSWER_LENGTH} characters.` : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'Enter a number.';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Enter true or false.';
    case 'choice':
      return typeof value === 'string' && question.choices.includes(value)
        ? undefined
        : `Enter one of: ${question.choices.join(', ')}.`;
  }
}

/** What is wrong with a missing or given value; `who` names the participant in the message. */
function answerError(question: Question, value: unknown, who: string): string | undefined {
  if (isMissing(value)) return question.required ? `An answer${who} is required.` : undefined;
  const error = valueError(question, value);
  return error && `${error.slice(0, -1)}${who}.`;
}

/**
 * What is wrong with a request's `answers` for `questions`, by member (`answers.<code>`): a missing
 * required answer, a wrong kind, an unknown choice, a text over the limit, a per-participant list whose
 * length is not `count` (the booking's participants, or units of equipment), or a code the listing does
 * not ask. `answers` left out is no answers.
 */
export function answersErrors(
  questions: readonly Question[],
  answers: unknown,
  count: number,
  field = 'answers',
): Record<string, string> {
  if (answers !== undefined && answers !== null && !isObject(answers))
    return { [field]: 'Enter an object of answers by question code.' };
  const given: Member = answers ?? {};
  const errors: Record<string, string> = {};
  const codes = new Set(questions.map((q) => q.code));
  for (const code of Object.keys(given))
    if (!codes.has(code)) errors[`${field}.${code}`] = 'The listing asks no question with this code.';
  for (const question of questions) {
    const at = `${field}.${question.code}`;
    const value = own(given, question.code);
    if (question.per === 'booking') {
      const error = answerError(question, value, '');
      if (error) errors[at] = error;
      continue;
    }
    if (value === undefined || value === null) {
      if (question.required) errors[at] = `Enter a list of ${count} answers, one per participant.`;
      continue;
    }
    if (!Array.isArray(value) || value.length !== count) {
      errors[at] = `Enter a list of ${count} answers, one per participant.`;
      continue;
    }
    for (const [i, one] of value.entries()) {
      const error = answerError(question, one, ` for participant ${i + 1}`);
      if (error) {
        errors[at] = error;
        break;
      }
    }
  }
  return errors;
}

/**
 * Valid answers (answersErrors found nothing) as stored: the asked codes only; a
 * blank optional answer is left out, and a list keeps null where a participant gave none.
 */
export function normalizeAnswers(questions: readonly Question[], answers: unknown): Answers {
  const given = (answers ?? {}) as Member;
  const stored: [string, Answers[string]][] = [];
  for (const question of questions) {
    const value = own(given, question.code);
    if (Array.isArray(value))
      stored.push([question.code, value.map((v) => (isMissing(v) ? null : (v as AnswerValue)))]);
    else if (!isMissing(value)) stored.push([question.code, value as AnswerValue]);
  }
  // own members whatever the code (`__proto__` included)
  return Object.fromEntries(stored);
}
