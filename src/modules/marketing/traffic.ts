import { createIsbotFromList, list as isbotList } from 'isbot';
import type { TrafficType } from '../../db/database.ts';
import { TRACKING_PARAMS, type TrackingParam } from '../catalog/index.ts';

// The parameter names are the catalog's (its detail views accept them); classifying them is marketing's.
export { TRACKING_PARAMS, type TrackingParam };
export type TrackingParams = Partial<Record<TrackingParam, string | null>>;

/** Marketing when any tracking parameter is non-empty after trimming; organic otherwise. */
export function classifyTraffic(params: TrackingParams): TrafficType {
  return TRACKING_PARAMS.some((name) => (params[name] ?? '').trim() !== '') ? 'marketing' : 'organic';
}

/**
 * User-Agents of generic HTTP clients, which API clients record clicks with (decisions §17): isbot's list
 * counts them as bots, so every pattern of the list that matches one of these is left out.
 */
const GENERIC_CLIENTS = [
  'curl/8.5.0',
  'Wget/1.21.4',
  'node',
  'undici',
  'node-fetch/1.0',
  'axios/1.7.2',
  'got (https://github.com/sindresorhus/got)',
  'python-requests/2.32.3',
  'python-httpx/0.27.0',
  'Python-urllib/3.12',
  'aiohttp/3.9',
  'Go-http-client/1.1',
  'okhttp/4.12.0',
  'Java/17.0.2',
  'Apache-HttpClient/4.5.14 (Java/17)',
  'Ruby',
  'Faraday v2.9.0',
  'libwww-perl/6.72',
  'PostmanRuntime/7.39.0',
];

const isKnownBot = createIsbotFromList(
  isbotList.filter((pattern) => {
    const matches = new RegExp(pattern, 'i');
    return !GENERIC_CLIENTS.some((agent) => matches.test(agent));
  }),
);

/** A known crawler, link preview, monitor or headless browser by its User-Agent; a missing one is not. */
export function isBotAgent(userAgent: string | undefined): boolean {
  return userAgent !== undefined && userAgent !== '' && isKnownBot(userAgent);
}
