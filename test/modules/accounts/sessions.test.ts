import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { PASSWORD, registerCustomer } from '../../helpers/factories.ts';

// Ending sessions: POST /accounts/logout/ for API clients (decisions §15), and the web app's cookie
// session (src/modules/accounts/web-session.routes.ts) with its cross-site guard.

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

const WEB = { 'x-waterbook-web': '1' };
const refreshWith = (refresh: string) =>
  api({ method: 'POST', url: '/api/v1/accounts/token/refresh/', payload: { refresh } });

/** A call of the web session's refresh or logout as the page makes it, with the session cookie. */
const webSession = (path: 'refresh/' | 'logout/', cookie: string) =>
  api({
    method: 'POST',
    url: `/api/v1/accounts/web-session/${path}`,
    headers: WEB,
    cookies: { waterbook_refresh: cookie },
  });

/** The session cookie a response set: its value and attributes. */
function sessionCookie(res: { cookies: { name: string; value: string; [k: string]: unknown }[] }) {
  return res.cookies.find((c) => c.name === 'waterbook_refresh');
}

describe('POST /accounts/logout/', () => {
  it('revokes the refresh token: it can no longer be rotated', async () => {
    const customer = await registerCustomer(t.app);
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/logout/',
      token: customer.token,
      payload: { refresh: customer.refresh },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const refreshed = await refreshWith(customer.refresh);
    expect(refreshed.statusCode).toBe(401);
    expect(refreshed.json().code).toBe('token_not_valid');
  });

  it("refuses another user's refresh token and leaves it working", async () => {
    const [a, b] = [await registerCustomer(t.app), await registerCustomer(t.app)];
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/logout/',
      token: a.token,
      payload: { refresh: b.refresh },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_not_valid');
    const refreshed = await refreshWith(b.refresh);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().access).toEqual(expect.any(String));
  });

  it('needs an access token', async () => {
    const customer = await registerCustomer(t.app);
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/logout/',
      payload: { refresh: customer.refresh },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('not_authenticated');
  });
});

describe('the web session', () => {
  async function webLogin(email: string) {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/',
      headers: WEB,
      payload: { email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }

  it('answers the access token in the body and keeps the refresh token in an HttpOnly, SameSite=Strict cookie', async () => {
    const customer = await registerCustomer(t.app);
    const res = await webLogin(customer.email);
    expect(Object.keys(res.json())).toEqual(['access']);
    const cookie = sessionCookie(res);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/v1/accounts/web-session/',
      maxAge: 7 * 24 * 3600,
    });
    const me = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: res.json().access });
    expect(me.json().email).toBe(customer.email);
  });

  it('rotates the cookie on refresh; the old cookie shown again ends every session of the user', async () => {
    const customer = await registerCustomer(t.app);
    const first = sessionCookie(await webLogin(customer.email))!.value;
    const refreshed = await webSession('refresh/', first);
    expect(refreshed.statusCode).toBe(200);
    const second = sessionCookie(refreshed)!.value;
    expect(second).not.toBe(first);
    const me = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: refreshed.json().access });
    expect(me.json().id).toBe(customer.id);

    const replayed = await webSession('refresh/', first);
    expect(replayed.statusCode).toBe(401);
    expect(sessionCookie(replayed)?.value).toBe(''); // cleared
    const afterTheft = await webSession('refresh/', second);
    expect(afterTheft.statusCode).toBe(401);
  });

  it('answers 204 to a refresh without a cookie: nobody is logged in', async () => {
    const res = await api({ method: 'POST', url: '/api/v1/accounts/web-session/refresh/', headers: WEB });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('logs out: the cookie is cleared and its token revoked', async () => {
    const customer = await registerCustomer(t.app);
    const cookie = sessionCookie(await webLogin(customer.email))!.value;
    const out = await webSession('logout/', cookie);
    expect(out.statusCode).toBe(204);
    expect(sessionCookie(out)?.value).toBe('');
    const after = await webSession('refresh/', cookie);
    expect(after.statusCode).toBe(401);
    // logging out twice is still a logout
    const again = await webSession('logout/', cookie);
    expect(again.statusCode).toBe(204);
  });

  it('refuses a request without the guard header or from another origin, before checking anything', async () => {
    const customer = await registerCustomer(t.app);
    const noHeader = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/',
      payload: { email: customer.email, password: PASSWORD },
    });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json()).toEqual({
      detail: 'The x-waterbook-web header is required.',
      code: 'permission_denied',
    });
    expect(sessionCookie(noHeader)).toBeUndefined();

    const cookie = sessionCookie(await webLogin(customer.email))!.value;
    const crossSite = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/refresh/',
      headers: { ...WEB, origin: 'https://evil.example', host: 'waterbook.example' },
      cookies: { waterbook_refresh: cookie },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().detail).toBe('Cross-site request refused.');
    // the cookie was not consumed by the refused request
    const sameSite = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/refresh/',
      headers: { ...WEB, origin: 'http://waterbook.example', host: 'waterbook.example' },
      cookies: { waterbook_refresh: cookie },
    });
    expect(sameSite.statusCode).toBe(200);
  });

  it('gives a wrong password the same 401 as /token/ and sets no cookie', async () => {
    const customer = await registerCustomer(t.app);
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/',
      headers: WEB,
      payload: { email: customer.email, password: 'not-the-password' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('not_authenticated');
    expect(sessionCookie(res)).toBeUndefined();
  });
});
