import { describe, expect, it } from 'vitest';
import { databaseOfFile, PASSWORD, startServer } from '../reliability/server-process.ts';

// The day of the trip's private data (decisions §23: answers, the waiver's signer and client, contact
// data) never reaches the logs, at the most verbose level, whether a request succeeds or is refused, nor
// the analytics export; the vendor's manifest and its CSV do show it.

const database = databaseOfFile();

describe('the day of the trip in the logs', () => {
  it('keeps answers, the waiver signer and client, and contact data out of trace-level logs', async () => {
    const server = await startServer(database().url, { LOG_LEVEL: 'trace' });
    const secret = {
      answer: 'answer-secret-penicillin-allergy',
      signer: 'Signer-Secret-Name',
      agent: 'AgentSecret/9.9',
      phone: '+351-PHONE-SECRET',
      email: 'email-secret@example.com',
    };
    const call = async (method: string, path: string, token?: string, body?: unknown, headers = {}) => {
      const res = await fetch(server.url + path, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const tokenOf = async (email: string) =>
      JSON.parse(
        (await call('POST', '/api/v1/accounts/token/', undefined, { email, password: PASSWORD })).text,
      ).access as string;
    expect(
      (
        await call('POST', '/api/v1/accounts/register/vendor/', undefined, {
          email: 'trip-vendor@example.com',
          password: PASSWORD,
          business_name: 'Trip Divers',
          waiver_text: 'I dive at my own risk.',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('POST', '/api/v1/accounts/register/customer/', undefined, {
          email: secret.email,
          password: PASSWORD,
          phone_number: secret.phone,
        })
      ).status,
    ).toBe(201);
    const vendor = await tokenOf('trip-vendor@example.com');
    const customer = await tokenOf(secret.email);
    const categories = JSON.parse((await call('GET', '/api/v1/categories/?page_size=100')).text).results;
    const created = await call('POST', '/api/v1/adventrues/vendor/offerings/', vendor, {
      public_id: 'trip-dive',
      title: 'Reef dive',
      description: '',
      meeting_point: 'Dock',
      duration_minutes: 120,
      capacity: 6,
      price_per_person: '50.00',
      is_active: true,
      category_id: categories.find((c: { slug: string }) => c.slug === 'boat-tours').id,
      questions: [{ code: 'health', label: 'Health notes', kind: 'text', required: true }],
    });
    expect(created.status, created.text).toBe(201);
    const dive = JSON.parse(created.text);
    const starts = new Date(Date.now() + 86_400_000).toISOString();
    const body = {
      adventure_offering_id: dive.id,
      starts_at: starts,
      answers: { health: secret.answer },
      waiver_acceptance: { accepted: true, name: secret.signer },
    };
    // refused (an unknown code beside the answer), then accepted
    const refused = await call('POST', '/api/v1/booking/bookings/request/', customer, {
      ...body,
      answers: { ...body.answers, shoe: secret.answer },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).not.toContain(secret.answer);
    const booked = await call('POST', '/api/v1/booking/bookings/request/', customer, body, {
      'user-agent': secret.agent,
    });
    expect(booked.status, booked.text).toBe(201);
    const date = starts.slice(0, 10);
    const manifest = await call('GET', `/api/v1/booking/vendor/manifest/?date=${date}`, vendor);
    const csv = await call('GET', `/api/v1/booking/vendor/manifest/export/?date=${date}`, vendor);
    for (const value of [secret.answer, secret.signer, secret.agent, secret.phone])
      expect(manifest.text).toContain(value);
    for (const value of [secret.answer, secret.signer, secret.phone]) expect(csv.text).toContain(value);
    const clicks = await call(
      'GET',
      `/api/v1/marketing/vendor/clicks/export/?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z`,
      vendor,
    );
    expect(clicks.status).toBe(200);
    for (const value of Object.values(secret)) expect(clicks.text).not.toContain(value);

    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const { stdout, stderr } = server.output();
    for (const value of Object.values(secret)) {
      expect(stdout, value).not.toContain(value);
      expect(stderr, value).not.toContain(value);
    }
  }, 30_000);
});
