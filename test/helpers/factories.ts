import type { FastifyInstance } from 'fastify';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export const PASSWORD = 'Tidal-Paddle-2024!';

export interface Account {
  id: number;
  email: string;
  token: string;
  refresh: string;
  vendorSlug?: string;
}

/** A fresh access token of the account at the app clock's now (tests that move the clock past the TTL). */
export async function freshToken(app: FastifyInstance, account: Pick<Account, 'email'>): Promise<string> {
  return (await login(app, account.email)).access;
}

async function login(app: FastifyInstance, email: string, password = PASSWORD) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/accounts/token/',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json() as { access: string; refresh: string };
}

export async function registerVendor(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<Account> {
  const email = `vendor-${unique()}@example.com`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/accounts/register/vendor/',
    payload: { email, password: PASSWORD, business_name: `Blue Lagoon ${unique()}`, ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`vendor registration failed: ${res.statusCode} ${res.body}`);
  const user = res.json();
  const tokens = await login(app, user.email);
  return {
    id: user.id,
    email: user.email,
    token: tokens.access,
    refresh: tokens.refresh,
    vendorSlug: user.vendor_profile.slug,
  };
}

export async function registerCustomer(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<Account> {
  const email = `customer-${unique()}@example.com`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/accounts/register/customer/',
    payload: { email, password: PASSWORD, first_name: 'Ana', last_name: 'Silva', ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`customer registration failed: ${res.statusCode} ${res.body}`);
  const user = res.json();
  const tokens = await login(app, user.email);
  return { id: user.id, email: user.email, token: tokens.access, refresh: tokens.refresh };
}
