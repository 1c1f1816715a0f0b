// The web app's only way to the server: the public API, typed by the OpenAPI document the server serves
// (web/src/generated, made by `npm run api-types`). The access token lives in this module's memory only;
// the refresh token is an HttpOnly cookie the page never sees (POST /accounts/web-session/ and friends).
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/api.d.ts';

export type Schemas = components['schemas'];

/** The decided error body (decisions §1), with the status it came with. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string[]>;
  constructor(status: number, body: unknown) {
    const b = (body ?? {}) as { detail?: string; code?: string; errors?: Record<string, string[]> };
    super(b.detail ?? `Request failed (${status}).`);
    this.status = status;
    this.code = b.code ?? 'error';
    this.fields = b.errors ?? {};
  }
}

const SESSION = '/api/v1/accounts/web-session/';
const SESSION_HEADERS = { 'x-waterbook-web': '1' };

let accessToken: string | null = null;
const listeners = new Set<() => void>();

export const hasAccessToken = () => accessToken !== null;
/** Called whenever the session starts or ends (another tab logging out included). */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function setAccess(token: string | null): void {
  accessToken = token;
  for (const listener of listeners) listener();
}

async function sessionCall(path: string, body?: unknown): Promise<Response> {
  return fetch(SESSION + path, {
    method: 'POST',
    credentials: 'same-origin',
    headers:
      body === undefined ? SESSION_HEADERS : { ...SESSION_HEADERS, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

let refreshing: Promise<boolean> | null = null;

/**
 * A new access token from the session cookie. The server rotates the cookie and treats a rotated one shown
 * again as stolen, so two tabs must never refresh at once: the Web Locks API serialises them.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= navigator.locks
    .request('waterbook-session', async () => {
      const res = await sessionCall('refresh/');
      if (res.status !== 200) {
        setAccess(null);
        return false;
      }
      setAccess(((await res.json()) as { access: string }).access);
      return true;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export async function logIn(email: string, password: string): Promise<void> {
  const res = await sessionCall('', { email, password });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  setAccess(((await res.json()) as { access: string }).access);
}

export async function logOut(): Promise<void> {
  await sessionCall('logout/');
  setAccess(null);
}

const auth: Middleware = {
  onRequest({ request }) {
    if (accessToken) request.headers.set('authorization', `Bearer ${accessToken}`);
    return request;
  },
};

/** The typed client: `api.GET('/api/v1/...', {params})`. Prefer `call` below, which throws ApiError. */
export const api = createClient<paths>({ baseUrl: '' });
api.use(auth);

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * Runs an API call and answers its result, or throws ApiError. An expired access token is refreshed once
 * from the session cookie and the call made again.
 */
async function send<T>(request: () => Promise<Result<T>>): Promise<Result<T>> {
  let result = await request();
  if (result.response.status === 401 && accessToken && (await refreshSession())) result = await request();
  if (result.error !== undefined || !result.response.ok)
    throw new ApiError(result.response.status, result.error);
  return result;
}

/** Runs an API call (as `send`) and answers its data. */
export async function call<T>(request: () => Promise<Result<T>>): Promise<T> {
  return (await send(request)).data as T;
}

/**
 * Runs an API call made with `parseAs: 'blob'` (as `send`) and has the browser save its answer under the
 * name its Content-Disposition gives. A plain link could not do it: the API wants the access token in a
 * header, which only this module holds, so the file is fetched here and handed over as an object URL.
 */
export async function saveFile(request: () => Promise<Result<Blob>>): Promise<void> {
  const { data, response } = await send(request);
  const disposition = response.headers.get('content-disposition') ?? '';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(data as Blob);
  link.download = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download';
  link.click();
  // the browser reads the object URL after this click's task: let it go a moment later, not at once
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
