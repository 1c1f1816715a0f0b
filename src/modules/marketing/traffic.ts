import type { TrafficType } from '../../db/database.ts';
import { TRACKING_PARAMS, type TrackingParam } from '../catalog/index.ts';

// The parameter names are the catalog's (its detail views accept them); classifying them is marketing's.
export { TRACKING_PARAMS, type TrackingParam };
export type TrackingParams = Partial<Record<TrackingParam, string | null>>;

/** Marketing when any tracking parameter is non-empty after trimming; organic otherwise. */
export function classifyTraffic(params: TrackingParams): TrafficType {
  return TRACKING_PARAMS.some((name) => (params[name] ?? '').trim() !== '') ? 'marketing' : 'organic';
}
