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

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
}

/** The path of the first declared string field holding a NUL character, or null. */
type NulCheck = (data: unknown) => string | null;

/**
 * A NulCheck for a schema, built once per schema so that a request walks only its data: PostgreSQL cannot
 * store NUL in text, so such input would fail only there, and late; it is refused up front on both
 * databases. Free-form objects (listing details, webhook payloads) are stored as JSON text, escaped, and
 * not walked. A path is only put together for a field that is found.
 */
function nulCheck(schema: SchemaNode): NulCheck {
  const items = schema.items && nulCheck(schema.items);
  const branches = (schema.anyOf ?? []).map(nulCheck);
  const fields = Object.entries(schema.properties ?? {}).map(
    ([key, child]) => [key, nulCheck(child)] as const,
  );
  return (data) => {
    if (typeof data === 'string') return data.includes('\u0000') ? '' : null;
    if (Array.isArray(data)) {
      if (!items) return null;
      for (let i = 0; i < data.length; i++) {
        const found = items(data[i]);
        if (found !== null) return `/${i}${found}`;
      }
      return null;
    }
    if (typeof data !== 'object' || data === null) return null;
    for (const branch of branches) {
      const found = branch(data);
      if (found !== null) return found;
    }
    for (const [key, check] of fields) {
      const found = check((data as Record<string, unknown>)[key]);
      if (found !== null) return `/${key}${found}`;
    }
    return null;
  };
}

type Validate = ((data: unknown) => boolean) & { errors?: Partial<ErrorObject>[] | null };

/**
 * A route part's check, compiled when the route is first asked, not at start: a process compiles only the
 * checks of the routes it serves, and the rest never take memory (most processes serve a few).
 */
export const validatorCompiler: FastifySchemaCompiler<object> = (route) => {
  let compiled: Validate | undefined;
  const check: Validate = (data) => {
    compiled ??= compileCheck(route);
    const valid = compiled(data);
    check.errors = compiled.errors;
    return valid;
  };
  return check as ReturnType<FastifySchemaCompiler<object>>;
};

function compileCheck({ schema, httpPart }: Parameters<FastifySchemaCompiler<object>>[0]): Validate {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate = ajv.compile(schema);
  const nulField = nulCheck(schema as SchemaNode);
  const check: Validate = (data) => {
    if (!validate(data)) {
      check.errors = validate.errors;
      return false;
    }
    const field = nulField(data);
    check.errors =
      field === null
        ? null
        : [{ instancePath: field, keyword: 'nul', message: 'must not contain NUL characters', params: {} }];
    return field === null;
  };
  return check;
}

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

/** Checks data against a body schema outside a request (the command line): its field errors, or null. */
export function bodyErrors(schema: object, data: unknown): FieldErrors | null {
  const check = validatorCompiler({ schema, httpPart: 'body', method: '', url: '' }) as Validate;
  return check(data) ? null : fieldErrors(check.errors ?? [], 'body');
}
