import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrors } from './errors.ts';

// Two validators: query strings and path parameters arrive as text and are coerced to the schema's types;
// JSON bodies are taken as sent ("12" is not an integer), so a client learns about a wrong type.
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};

function pathToField(instancePath: string): string {
  return instancePath.replace(/^\//, '').split('/').join('.');
}

/** Ajv errors → the `errors` map of the error body: field name → messages. */
export function fieldErrors(validation: Partial<ErrorObject>[], part: string | undefined): FieldErrors {
  const errors: FieldErrors = {};
  for (const e of validation) {
    let field = pathToField(e.instancePath ?? '');
    let message = e.message ?? 'is invalid';
    const params = (e.params ?? {}) as Record<string, unknown>;
    if (e.keyword === 'required') {
      field = field ? `${field}.${params.missingProperty}` : String(params.missingProperty);
      message = 'This field is required.';
    } else if (e.keyword === 'additionalProperties') {
      field = field ? `${field}.${params.additionalProperty}` : String(params.additionalProperty);
      message = 'Unknown field.';
    }
    if (!field) field = part === 'body' ? 'body' : (part ?? 'request');
    const list = errors[field] ?? [];
    if (!list.includes(message)) list.push(message);
    errors[field] = list;
  }
  return errors;
}
