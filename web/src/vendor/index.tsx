import { Page } from '../ui.tsx';

// placeholder: the vendor-dashboard part of issue 25 builds the dashboard
export function VendorApp() {
  return <Page title="Vendor dashboard">{null}</Page>;
}
