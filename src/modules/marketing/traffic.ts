import type { TrafficType } from '../../db/database.ts';

export const TRACKING_PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
] as const;

export type TrackingParam = (typeof TRACKING_PARAMS)[number];
export type TrackingParams = Partial<Record<TrackingParam, string | undefined>>;

/** Marketing when any tracking parameter is non-empty after trimming; organic otherwise. */
export function classifyTraffic(params: TrackingParams): TrafficType {
  return TRACKING_PARAMS.some((name) => (params[name] ?? '').trim() !== '') ? 'marketing' : 'organic';
}
