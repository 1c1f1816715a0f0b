// The marketing module's interface. Lower modules never import it: buildApp hands them these functions.
export {
  type ClickForAttribution,
  findClickForAttribution,
  type RecordClickInput,
  type RecordedClick,
  recordListingClick,
} from './clicks.service.ts';
export { classifyTraffic, TRACKING_PARAMS, type TrackingParams } from './traffic.ts';
