import { Page } from '../ui.tsx';

// placeholder: the customer-site part of issue 25 builds this page
export function StorefrontPage() {
  return <Page title="Vendor">{null}</Page>;
}
