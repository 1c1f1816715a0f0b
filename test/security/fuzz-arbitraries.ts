import fc from 'fast-check';
import type { RouteEntry } from '../../src/http/openapi.ts';
import { PASSWORD } from '../helpers/factories.ts';
import { pathParams, type World } from './world.ts';

// Generated requests for any route, driven by the route's own schemas (so new routes are fuzzed as soon as
// they are registered) and by field-name hints (so values often get past validation and into the services).

export interface FuzzRequest {
  token: string | undefined;
  path: Record<string, string>;
  query: string;
  body?: { kind: 'json'; value: unknown } | { kind: 'raw'; contentType?: string; payload: string };
  referer?: string;
  /** sent as `Idempotency-Key` (authenticated POSTs only): mostly a new key, sometimes a reused or bad one */
  idempotencyKey?: string;
  /** a JSON body's text starts with a byte-order mark */
  bom?: boolean;
  /** a JSON object body gains an ignored field nested this many levels deep (built as text) */
  deepField?: number;
}

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: Schema;
};

const NASTY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '1e309',
  'true',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(1)',
  '%',
  '_',
  '\\',
  '%_\\%',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '$' + '{7*7}', // template injection probe
  '{{7*7}}',
  '../../../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '👩‍👩‍👧‍👦🏄‍♀️🌊',
  'Ǆǅǆ İı ß ﬀ',
  '\r\nSet-Cookie: a=b',
  '\t\n\v\f',
  'x'.repeat(201),
  'x'.repeat(5001),
  '🌊'.repeat(3000),
  '2026-02-30T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '2026-06-01T12:00:00+99:99',
  '45.00',
  '99999999.99',
  '100000000.00',
  '1.005',
  '-0.01',
  '1e3',
  '0x10',
  '__proto__',
  'constructor',
];

const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  1.005,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
  5e-324,
  99999999.99,
  100000000,
];

const DATES = [
  '2026-02-30T00:00:00Z',
  '2026-06-01T12:00:00+14:00',
  '2026-06-01T12:00:00-12:00',
  '2026-06-01',
  '2026-06-01T12:00:00',
  '2026-06-01 12:00:00',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999Z',
  '2026-13-01T00:00:00Z',
  '2026-06-01T24:00:00Z',
  '2026-06-01T12:00:00.123456789Z',
  '+275760-09-13T00:00:00.000Z',
  'now',
];

/** A deeply nested value; it prints itself briefly, since fast-check's printer recurses. */
const deep = (depth: number, array: boolean): unknown => {
  let value: unknown = array ? [] : {};
  for (let i = 0; i < depth; i++) value = array ? [value] : { a: value };
  Object.defineProperty(value, fc.toStringMethod, {
    value: () => `deep(${depth}, ${array ? 'array' : 'object'})`,
  });
  return value;
};

export function arbitraries(world: World) {
  const { a, b } = world;
  const ids = [
    ...[a, b].flatMap((p) => [
      p.equipment.id,
      p.adventure.id,
      p.slotItem.id,
      p.slotId,
      p.bookingId,
      p.paidBookingId,
      p.paymentId,
      p.clickId,
      p.customer.id,
      p.vendor.id,
      p.vendor.profileId,
    ]),
    world.category.id,
  ];
  const publicIds = [a, b].flatMap((p) => [
    p.equipment.public_id,
    p.adventure.public_id,
    p.slotItem.public_id,
  ]);
  const slugs = [a.vendor.slug, b.vendor.slug, 'kayaks', 'boat-tours'];
  const intents = [a.intentId, b.intentId];
  // tokens that pass each rule: most requests carry one, so that they get past authentication
  const fitting: Record<RouteEntry['auth'], (string | undefined)[]> = {
    public: [undefined, a.customer.token, b.vendor.token],
    user: [a.customer.token, a.vendor.token, b.customer.token, b.vendor.token, world.staff.token],
    vendor: [a.vendor.token, b.vendor.token],
    customer: [a.customer.token, b.customer.token],
    staff: [world.staff.token],
    // the OCTO routes are not fuzzed here (routes.ts apiRoutes): a reseller's key, no token, passes them
    channel: [],
  };
  const tokens = [
    undefined,
    a.customer.token,
    a.vendor.token,
    b.customer.token,
    b.vendor.token,
    world.staff.token,
    world.tokens.expired,
    world.tokens.algNone,
    world.tokens.tampered,
  ];

  const isoDate = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .date({
          min: new Date('2026-05-01T00:00:00Z'),
          max: new Date('2027-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
    },
    {
      weight: 1,
      arbitrary: fc
        .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
        .map((d) => d.toISOString()),
    },
    { weight: 1, arbitrary: fc.constantFrom(...DATES) },
  );

  const nastyString = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 17 }).map((n) => 'é'.repeat(2 ** n)) },
    { weight: 1, arbitrary: isoDate },
  );

  const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 5, arbitrary: nastyString },
    { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, ...NASTY_NUMBERS) },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constantFrom(...ids) },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(fc.integer(), nastyString, fc.constant(null)), { maxLength: 4 }),
    },
    { weight: 1, arbitrary: fc.dictionary(nastyString, fc.oneof(fc.integer(), nastyString), { maxKeys: 4 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 20, max: 1000 }), fc.boolean()).map(([d, arr]) => deep(d, arr)),
    },
  );

  const idHint = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 80 }) },
  );
  const money = fc.oneof(
    fc.constantFrom<unknown>(
      '45.00',
      '0',
      '0.01',
      '12.5',
      '99999999.99',
      '100000000',
      '1.005',
      '-1',
      '1e3',
      ' 7 ',
    ),
    fc.double({ min: -10, max: 1e9, noNaN: true }),
    fc.integer({ min: 0, max: 10_000 }),
  );

  /** Plausible values by field name: they get past the schema and into the service's own rules. */
  const hint = (name: string): fc.Arbitrary<unknown> | undefined => {
    if (name === 'email')
      return fc.oneof(fc.emailAddress(), fc.constantFrom(a.customer.email, b.vendor.email));
    if (name === 'password')
      return fc.oneof(fc.constant(PASSWORD), fc.string({ minLength: 1, maxLength: 24 }));
    // never a live refresh token: a reused one is refused *and* revokes the user's tokens, by design
    if (name === 'refresh')
      return fc.constantFrom(world.tokens.expired, world.tokens.algNone, a.customer.token, 'x');
    if (/^(starts_at|ends_at|from|to|available_from|available_to)$/.test(name)) return isoDate;
    if (name === 'public_id')
      return fc.oneof(fc.constantFrom(...publicIds), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/));
    if (name === 'slug' || name === 'vendor_slug' || name === 'category')
      return fc.oneof(fc.constantFrom(...slugs), fc.integer({ min: 0, max: 20 }).map(String));
    if (name === 'gateway_payment_intent_id')
      return fc.oneof(fc.constantFrom(...intents), fc.string({ maxLength: 30 }));
    if (name === 'currency') return fc.constantFrom('usd', 'eur', 'EUR', ' gbp ', 'us', 'usdd', '€€€', '');
    if (/price/.test(name)) return money;
    if (name === 'participants_count' || name === 'capacity' || name === 'duration_minutes')
      return fc.integer({ min: -1, max: 12 });
    if (name === 'id' || name.endsWith('_id')) return idHint;
    if (name === 'listing_type') return fc.constantFrom('equipment', 'adventure', 'Equipment', '');
    return undefined;
  };

  /** Values valid for a JSON schema (and plausible by field name). */
  const fromSchema = (schema: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> => {
    if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 2 });
    const hinted = hint(name);
    if (
      hinted &&
      !schema.enum &&
      schema.const === undefined &&
      !schema.anyOf?.every((s) => s.const !== undefined)
    )
      return fc.oneof({ weight: 3, arbitrary: hinted }, { weight: 1, arbitrary: plain(schema, name, depth) });
    return plain(schema, name, depth);
  };

  const plain = (schema: Schema, name: string, depth: number): fc.Arbitrary<unknown> => {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return fc.oneof(...union.map((s) => fromSchema(s, name, depth + 1)));
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'integer': {
        const min = schema.minimum ?? -1000;
        const max = schema.maximum ?? 1000;
        return fc.oneof(fc.integer({ min, max: Math.min(max, min + 50) }), fc.integer({ min, max }));
      }
      case 'number':
        return fc.double({ min: schema.minimum, max: schema.maximum, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'string': {
        if (schema.format === 'email') return fc.emailAddress();
        if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
        const maxLength = Math.min(schema.maxLength ?? 40, 40);
        return fc.string({
          minLength: Math.min(schema.minLength ?? 0, maxLength),
          maxLength,
          unit: 'grapheme',
        });
      }
      case 'array':
        return fc.array(fromSchema(schema.items, name, depth + 1), { maxLength: 3 });
      case 'object': {
        const properties = schema.properties ?? {};
        if (!Object.keys(properties).length)
          return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
        const required = new Set(schema.required ?? []);
        return fc.record(
          Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, fromSchema(s, k, depth + 1)])),
          { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) },
        );
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };

  /** A schema-valid object, then a few fields replaced, removed or added with hostile values. */
  const mutatedObject = (schema: Schema | undefined): fc.Arbitrary<unknown> => {
    const keys = Object.keys(schema?.properties ?? {});
    const foreignKeys = ['id', 'vendor_id', 'status', 'is_staff', 'is_vendor', '__proto__', 'constructor'];
    const key = keys.length
      ? fc.oneof(fc.constantFrom(...keys), fc.constantFrom(...foreignKeys))
      : fc.constantFrom(...foreignKeys);
    return fc
      .tuple(
        schema ? fromSchema(schema) : fc.constant({}),
        fc.array(fc.tuple(key, fc.option(nastyValue, { nil: undefined, freq: 5 })), { maxLength: 3 }),
      )
      .map(([base, edits]) => {
        if (typeof base !== 'object' || base === null || Array.isArray(base)) return base;
        const object: Record<string, unknown> = { ...(base as Record<string, unknown>) };
        for (const [k, v] of edits) {
          if (v === undefined) delete object[k];
          else
            Object.defineProperty(object, k, {
              value: v,
              enumerable: true,
              configurable: true,
              writable: true,
            });
        }
        return object;
      });
  };

  const rawBody = fc.oneof(
    fc.record({
      kind: fc.constant('raw' as const),
      contentType: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json; charset=utf-16',
        'application/json',
        'application/vnd.api+json',
      ),
      payload: fc.constantFrom(
        '{',
        '{"a":',
        'null',
        '[]',
        '"x"',
        '1e999',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '['.repeat(50_000),
        '{"a":'.repeat(20_000),
        `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
        `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
        '\ufeff{}',
        'a=1&b=2',
        '<x/>',
        '',
        '{"email":"a@b.co","email":"c@d.co"}',
      ),
    }),
    fc.record({ kind: fc.constant('raw' as const), payload: fc.string({ unit: 'binary', maxLength: 40 }) }),
  );

  const body = (route: RouteEntry) => {
    const schema = route.schema?.body as Schema | undefined;
    const json = fc.oneof(
      { weight: 6, arbitrary: mutatedObject(schema) },
      { weight: 1, arbitrary: nastyValue },
    );
    return fc.oneof(
      { weight: 8, arbitrary: json.map((value) => ({ kind: 'json' as const, value })) },
      { weight: 2, arbitrary: rawBody },
    );
  };

  const text = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  // an array is the parameter repeated
  const queryValue = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : [text(v)]);

  const query = (route: RouteEntry) => {
    const schema = route.schema?.querystring as Schema | undefined;
    const structured = mutatedObject(schema).map((value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(value)) for (const text of queryValue(v)) params.append(k, text);
      const text = params.toString();
      return text ? `?${text}` : '';
    });
    const raw = fc.constantFrom(
      '?page=1&page=2',
      '?page_size=0',
      '?page_size=101',
      '?page=99999999999999999999',
      '?a[b]=1&a[c]=2',
      '?%ZZ=1',
      '?x=%E0%A4%A',
      '?=&&=&',
      '?__proto__[polluted]=1',
      '?utm_source=%00',
      `?utm_campaign=${'x'.repeat(600)}`,
    );
    return fc.oneof({ weight: 8, arbitrary: structured }, { weight: 1, arbitrary: raw });
  };

  const pathValue = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...ids.map(String)) },
      { weight: 2, arbitrary: fc.constantFrom(...publicIds, ...slugs) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '-1',
          '0',
          '2147483647',
          '2147483648',
          String(2 ** 53),
          '9007199254740993',
          '1e3',
          '0x1f',
          'abc',
          '1.5',
          ' 1',
          '%00',
          '%2e%2e%2f',
          '..',
          'null',
          '💥',
          'x'.repeat(1001),
          "1' OR '1'='1",
          '<script>',
        ),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }) },
    );

  const idempotencyKey = fc.oneof(
    { weight: 6, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom('fuzz-reused-1', 'fuzz-reused-2') },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'x'.repeat(256), 'tab\there') },
  );
  // past the body's depth bound (src/http/json-body.ts), by a little and by far more than a stack takes
  const deepField = fc.constantFrom(65, 200, 6_000, 100_000);

  const request = (route: RouteEntry): fc.Arbitrary<FuzzRequest> => {
    const params = pathParams(route.url);
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    const takesKey = route.method === 'POST' && route.auth !== 'public';
    return fc.record(
      {
        token: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...fitting[route.auth]) },
          { weight: 1, arbitrary: fc.constantFrom(...tokens) },
        ),
        path: fc.record(Object.fromEntries(params.map((p) => [p, pathValue()]))),
        query: route.schema?.querystring || route.method === 'GET' ? query(route) : fc.constant(''),
        body: hasBody
          ? body(route)
          : fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: body(route) }),
        referer: fc.option(fc.constantFrom('https://news.example/', 'x'.repeat(2000), "'; --"), {
          nil: undefined,
        }),
        idempotencyKey: takesKey
          ? fc.option(idempotencyKey, { nil: undefined, freq: 2 })
          : fc.constant(undefined),
        bom: fc.oneof(
          { weight: 4, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
        deepField: fc.option(deepField, { nil: undefined, freq: 6 }),
      },
      { requiredKeys: ['token', 'path', 'query'] },
    );
  };

  return { request };
}
