import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allNamedSchemas, exampleOf, withNamedSchemasInlined } from '../../../src/http/schemas.ts';
import { validatorCompiler } from '../../../src/http/validation.ts';
import { BOOKING_STATUSES } from '../../../src/modules/booking/index.ts';
import { ORDERINGS } from '../../../src/modules/catalog/listings.schemas.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { apiRoutes } from '../../security/routes.ts';

// The served OpenAPI document is what generated clients and validating proxies build on: its paths,
// names, enums, headers, security and examples must say what the server does.

interface Schema {
  $ref?: string;
  type?: string;
  enum?: string[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minLength?: number;
  pattern?: string;
  examples?: unknown[];
}
interface Media {
  schema: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  summary: string;
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { required: boolean; content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, Media> }>;
}
interface Document {
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await buildTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
const operation = (method: string, path: string) => doc.paths[path][method];
const json = (media: Record<string, Media> | undefined) => media?.['application/json'];
const refName = (schema: Schema | undefined) => schema?.$ref?.replace('#/components/schemas/', '');
const enumOf = (schema: Schema) => schema.enum ?? schema.anyOf?.flatMap((s) => s.enum ?? []);

describe('the OpenAPI document', () => {
  it('lists every path as the spec writes it, with its trailing slash', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => !p.endsWith('/'))).toEqual([]);
    for (const p of [
      '/api/v1/accounts/register/vendor/',
      '/api/v1/accounts/token/refresh/',
      '/api/v1/accounts/vendor-profile/me/',
      '/api/v1/equipment/items/',
      '/api/v1/equipment/items/{public_id}/',
      '/api/v1/adventrues/vendor/offerings/{id}/',
      '/api/v1/booking/bookings/{id}/approve/',
      '/api/v1/payment/{payment_id}/status/',
      '/api/v1/payment/webhooks/gateway/',
      '/api/v1/marketing/vendor/summary/',
    ])
      expect(paths).toContain(p);
  });

  it('names the resources in components.schemas and references them', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'Error',
      'User',
      'VendorUser',
      'VendorProfile',
      'TokenPair',
      'Category',
      'EquipmentItem',
      'EquipmentItemDetail',
      'EquipmentItemPage',
      'AdventureOffering',
      'AdventureOfferingPage',
      'Slot',
      'Booking',
      'BookingPage',
      'Payment',
      'PaymentIntent',
      'Click',
      'ClickPage',
      'Summary',
    ])
      expect(names).toContain(name);
    expect(names.filter((n) => n.startsWith('def-'))).toEqual([]);
    const response = (method: string, path: string, status: string) =>
      refName(json(operation(method, path).responses[status].content)?.schema);
    expect(response('post', '/api/v1/accounts/register/vendor/', '201')).toBe('VendorUser');
    expect(response('post', '/api/v1/equipment/vendor/items/', '201')).toBe('EquipmentItem');
    expect(response('get', '/api/v1/adventrues/offerings/', '200')).toBe('AdventureOfferingPage');
    expect(response('post', '/api/v1/booking/bookings/request/', '201')).toBe('Booking');
    expect(response('get', '/api/v1/marketing/vendor/summary/', '200')).toBe('Summary');
    expect(response('get', '/api/v1/accounts/me/', '404')).toBe('Error');
    expect(refName(doc.components.schemas.BookingPage.properties?.results.items)).toBe('Booking');
    // every response body is a named schema: nothing is inlined
    for (const { path, method, operation } of operations())
      for (const [status, r] of Object.entries(operation.responses))
        if (r.content)
          for (const [type, media] of Object.entries(r.content))
            expect(refName(media.schema), `${method} ${path} ${status} ${type}`).toBeDefined();
    // the export is CSV, not JSON
    const exported = operation('get', '/api/v1/marketing/vendor/clicks/export/').responses['200'].content;
    expect(Object.keys(exported ?? {})).toEqual(['text/csv']);
    expect(refName(exported?.['text/csv'].schema)).toBe('ClicksCsv');
  });

  it('does not make the profile of a registered vendor nullable', () => {
    const vendorUser = doc.components.schemas.VendorUser;
    expect(refName(vendorUser.properties?.vendor_profile)).toBe('VendorProfile');
    expect(vendorUser.required).toContain('vendor_profile');
  });

  it('declares the status and ordering enums', () => {
    const { schemas } = doc.components;
    expect(enumOf(schemas.Booking.properties?.status ?? {})).toEqual([...BOOKING_STATUSES]);
    expect(enumOf(schemas.PaymentWithBookingStatus.properties?.booking_status ?? {})).toEqual([
      ...BOOKING_STATUSES,
    ]);
    const paymentStatuses = [
      'requires_payment',
      'processing',
      'succeeded',
      'partially_refunded',
      'failed',
      'refunded',
    ];
    expect(schemas.Payment.properties?.status.enum).toEqual(paymentStatuses);
    expect(schemas.WebhookReceipt.properties?.payment_status.enum).toEqual(paymentStatuses);
    expect(enumOf(schemas.ManifestBooking.properties?.payment_status ?? {})).toEqual(paymentStatuses);
    const ordering = operation('get', '/api/v1/equipment/items/').parameters?.find(
      (p) => p.name === 'ordering',
    );
    expect(ordering).toMatchObject({ in: 'query', schema: { enum: [...ORDERINGS] } });
  });

  it('declares WWW-Authenticate on 401s, Retry-After on 429s and 503s, and the webhook signature', () => {
    for (const { path, method, operation } of operations()) {
      const where = `${method} ${path}`;
      const { responses } = operation;
      if (responses['401'])
        expect(Object.keys(responses['401'].headers ?? {}), where).toEqual(['WWW-Authenticate']);
      if (responses['429'])
        expect(Object.keys(responses['429'].headers ?? {}), where).toEqual(['Retry-After']);
      expect(Object.keys(responses['503'].headers ?? {}), where).toEqual(['Retry-After']);
    }
    const webhook = operation('post', '/api/v1/payment/webhooks/gateway/');
    expect(webhook.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'Gateway-Signature', required: false }),
    );
    expect(webhook.responses['404']).toBeDefined();
  });

  it('declares the optional token of the detail views and click tracking', () => {
    const optional = [{}, { bearerAuth: [] }];
    expect(operation('get', '/api/v1/equipment/items/{public_id}/').security).toEqual(optional);
    expect(operation('get', '/api/v1/adventrues/offerings/{public_id}/').security).toEqual(optional);
    expect(operation('post', '/api/v1/marketing/track/click/').security).toEqual(optional);
    expect(operation('get', '/api/v1/equipment/items/').security).toEqual([]);
    expect(operation('post', '/api/v1/booking/bookings/request/').security).toEqual([{ bearerAuth: [] }]);
  });

  it('marks the body optional where an empty request is taken, and required elsewhere', async () => {
    for (const action of ['approve', 'decline', 'cancel'])
      expect(operation('post', `/api/v1/booking/bookings/{id}/${action}/`).requestBody?.required).toBe(false);
    expect(operation('post', '/api/v1/booking/bookings/request/').requestBody?.required).toBe(true);
    // the server does take an empty POST (its 404 is about the booking, not the body)
    const { token } = await registerVendor(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/booking/bookings/999999/approve/',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(404);
  });

  it('states the password rule the server enforces', async () => {
    const password = json(operation('post', '/api/v1/accounts/register/customer/').requestBody?.content)
      ?.schema.properties?.password;
    const minLength = password?.minLength ?? 0;
    expect(minLength).toBe(8);
    const register = (pw: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/accounts/register/customer/',
        payload: { email: `pw-${pw.length}-${Date.now()}@example.com`, password: pw },
      });
    const short = await register('p'.repeat(minLength - 1));
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password).toBeDefined();
    expect((await register('p'.repeat(minLength))).statusCode).toBe(201);
    // entirely numeric passwords: refused by the document's pattern and by the server
    expect(new RegExp(password?.pattern ?? '').test('12345678')).toBe(false);
    expect((await register('12345678')).statusCode).toBe(400);
  });

  it('states the currency rule the server enforces', () => {
    const currency = json(operation('post', '/api/v1/payment/intents/').requestBody?.content)?.schema
      .properties?.currency;
    const pattern = new RegExp(currency?.pattern ?? '');
    for (const accepted of ['usd', 'EUR', ' gbp ']) expect(pattern.test(accepted), accepted).toBe(true);
    for (const refused of ['us', 'euro', 'u5d', '']) expect(pattern.test(refused), refused).toBe(false);
  });

  it('gives each request body an example its route accepts', () => {
    let checked = 0;
    for (const route of apiRoutes(t.app).filter((r) => r.schema?.body)) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const documented = doc.paths[path]?.[route.method.toLowerCase()];
      if (!documented) continue; // an alias prefix, left out of the document
      const content = documented.requestBody?.content;
      // the photo upload's body is a form (decisions §16)
      const example = (json(content) ?? content?.['multipart/form-data'])?.example;
      expect(example, `${route.method} ${path}`).toBeDefined();
      const validate = validatorCompiler({
        schema: route.schema?.body as object,
        method: route.method,
        url: route.url,
        httpPart: 'body',
      });
      expect(validate(example), `${route.method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
    const booking = json(
      operation('post', '/api/v1/booking/bookings/request/').requestBody?.content,
    )?.example;
    const ids = Object.keys(booking ?? {}).filter(
      (k) => k === 'equipment_item_id' || k === 'adventure_offering_id',
    );
    expect(ids).toHaveLength(1);
  });

  it('gives each response an example valid for its schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const schema of allNamedSchemas()) ajv.addSchema(schema);
    let checked = 0;
    for (const { path, method, operation } of operations())
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = json(response.content);
        if (!media) continue;
        const where = `${method} ${path} ${status}`;
        expect(media.example, where).toBeDefined();
        const validate = ajv.getSchema(refName(media.schema) ?? '');
        expect(validate?.(media.example), `${where}: ${JSON.stringify(validate?.errors)}`).toBe(true);
        checked++;
      }
    expect(checked).toBeGreaterThan(200);
  });

  it('serializes each response from its schema with the named schemas inlined, as the example says', () => {
    let checked = 0;
    for (const route of apiRoutes(t.app))
      for (const [status, schema] of Object.entries(route.schema?.response ?? {})) {
        const inlined = withNamedSchemasInlined(schema);
        const where = `${route.method} ${route.url} ${status}`;
        expect(JSON.stringify(inlined), where).not.toMatch(/"\$(ref|id)"/);
        const example = exampleOf(inlined as never);
        if (example === undefined) continue;
        expect(JSON.parse(fastJsonStringify(inlined as object)(example)), where).toEqual(example);
        checked++;
      }
    expect(checked).toBeGreaterThan(30);
  });

  it('carries the product name, in the document and on the docs page', async () => {
    expect(doc.info.title).toBe('Waterbook API');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.body).toContain('<title>Waterbook API</title>');
    expect(operation('post', '/api/v1/equipment/vendor/items/').summary).toBe('Create an equipment item');
    expect(operation('post', '/api/v1/adventrues/vendor/offerings/').summary).toBe(
      'Create an adventure offering',
    );
  });
});
