import { type Static, type TSchema, type TSchemaOptions, type TUnsafe, Type } from 'typebox';
import { MAX_ID } from '../lib/limits.ts';

// Schema pieces shared by every module's route schemas.

const namedSchemas = new Map<string, TSchema>();

/**
 * A schema the OpenAPI document names: it is listed once under `components.schemas` and responses point
 * at it with `Ref`. Every named schema is added to each app (`registerOpenApi`), where Fastify's response
 * serializers resolve the references when they are compiled. Request schemas (body, query, params) stay
 * inline: their validators (validation.ts) are compiled without the shared schemas.
 */
export function Named<T extends TSchema>(id: string, schema: T): T {
  if (namedSchemas.has(id)) throw new Error(`two schemas are named ${id}`);
  // a copy with every property, TypeBox's non-enumerable kind marker included
  const named: T = Object.create(Object.getPrototypeOf(schema), Object.getOwnPropertyDescriptors(schema));
  Object.assign(named, { $id: id });
  namedSchemas.set(id, named);
  return named;
}

/** A reference to a named schema, typed as the schema itself. */
export function Ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: string }).$id;
  if (id === undefined || namedSchemas.get(id) !== schema) throw new Error('Ref() takes a Named() schema');
  return Type.Unsafe<Static<T>>({ $ref: `${id}#` });
}

/**
 * `schema` with each reference to a named schema replaced by that schema itself, and no `$id` left: what a
 * response serializer is compiled from (see registerOpenApi). Keeps the serializers free of the shared
 * schemas, which Fastify would otherwise hand to every route's serializer whole.
 */
export function withNamedSchemasInlined(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNamedSchemasInlined);
  if (schema === null || typeof schema !== 'object') return schema;
  const { $id: _id, $ref: ref, ...rest } = schema as Record<string, unknown>;
  const named = typeof ref === 'string' ? namedSchemas.get(ref.replace(/#$/, '')) : undefined;
  if (named) return withNamedSchemasInlined(named);
  const inlined = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withNamedSchemasInlined(v)]));
  return ref === undefined ? inlined : { ...inlined, $ref: ref };
}

/** The first example a schema carries (TypeBox's types leave `examples` out). */
export const exampleOf = (schema: TSchema): unknown => (schema as { examples?: unknown[] }).examples?.[0];

/** Every named schema, in the order they were named. */
export const allNamedSchemas = (): TSchema[] => [...namedSchemas.values()];

/**
 * A string from a fixed list. Written as a plain `enum` of strings (not a union of constants): the
 * document shows the values as one enum, and a response serializer writes the string without trying
 * branches.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, options: TSchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

/** The key under which a request field carries the rules its service checks (see `serviceChecks`). */
export const SERVICE_CHECKS = 'x-service-checks';

/**
 * Rules of a request field that its service checks itself, answering with its own messages (the request
 * validator must not refuse the value first, with a generic message). They are kept out of validation and
 * written into the OpenAPI document, so the document is as strict as the server. Spread into the field's
 * options: `Type.String({ minLength: 1, ...serviceChecks({ minLength: 8 }) })`.
 */
export const serviceChecks = (rules: Record<string, unknown>) => ({ [SERVICE_CHECKS]: rules });

export const ErrorBodySchema = Named(
  'Error',
  Type.Object(
    {
      detail: Type.String({ description: 'a sentence for people' }),
      code: Type.String({ description: 'a stable code for programs, e.g. not_found or booking_conflict' }),
      errors: Type.Optional(
        Type.Record(Type.String(), Type.Array(Type.String()), {
          description: 'on 400s: the bad fields, each with its messages',
        }),
      ),
    },
    {
      description: 'The body of every error response.',
      examples: [
        {
          detail: 'Invalid input.',
          code: 'invalid',
          errors: { password: ['Password must be at least 8 characters long.'] },
        },
      ],
    },
  ),
);

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID }) });

/** ISO 8601 datetime in a response (always UTC with Z). */
export const DateTimeOut = Type.String({ format: 'date-time' });

/** ISO 8601 datetime in a request; parsed by the service (offsets honoured, no zone = UTC). */
export const DateTimeIn = Type.String({ maxLength: 64, description: 'ISO 8601 datetime; no zone means UTC' });

/** Money in a response: decimal string with two decimals. */
export const MoneyOut = Type.String({ pattern: '^-?\\d+\\.\\d{2}$', examples: ['45.00'] });

/** Money in a request: a decimal string or number, >= 0, at most two decimals (checked by the service). */
export const MoneyIn = Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
  description: 'decimal string or number, >= 0, at most two decimal places, below 100,000,000',
});

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const Text = (maxLength: number) => Type.String({ maxLength });
