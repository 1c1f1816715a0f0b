import type { Injector } from '../../helpers/build-test-app.ts';
import type { Account } from '../../helpers/factories.ts';

/** A new channel of the vendor (its owner creates it): its id and its key, shown once. */
export async function newChannel(
  api: Injector,
  owner: Pick<Account, 'token'>,
  name = 'Harbour Hotel',
): Promise<{ id: number; apiKey: string }> {
  const res = await api({ method: 'POST', url: '/api/v1/channels/', token: owner.token, payload: { name } });
  if (res.statusCode !== 201) throw new Error(`channel creation failed: ${res.statusCode} ${res.body}`);
  return { id: res.json().id, apiKey: res.json().api_key };
}

/**
 * OCTO requests with a channel's key (or without any when `apiKey` is undefined); `authorization` is the
 * header they send, for requests built by hand.
 */
export function octo(api: Injector, apiKey: string | undefined) {
  const authorization = apiKey === undefined ? undefined : `Bearer ${apiKey}`;
  const send = (method: 'GET' | 'POST', path: string, payload?: object) =>
    api({
      method,
      url: `/octo/v1/${path}`,
      headers: authorization === undefined ? {} : { authorization },
      ...(payload === undefined ? {} : { payload }),
    });
  return Object.assign(send, { authorization: authorization ?? '' });
}
