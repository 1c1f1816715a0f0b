// The marketing module's interface. Lower modules never import it: buildApp hands them these functions.
export {
  listVendorClicks,
  type MarketingDeps,
  summariseVendorClicks,
  type VendorSummary,
  type VendorTimeseries,
  vendorTimeseries,
} from './analytics.service.ts';
export {
  type ClickForAttribution,
  findClickForAttribution,
  type RecordClickInput,
  type RecordedClick,
  recordListingClick,
  type TrackClickInput,
  trackListingClick,
} from './clicks.service.ts';
export { marketingRoutes } from './marketing.routes.ts';
export { classifyTraffic, TRACKING_PARAMS, type TrackingParams } from './traffic.ts';
