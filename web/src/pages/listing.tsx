import { Page } from '../ui.tsx';

// placeholder: the customer-site part of issue 25 builds this page
export function ListingPage() {
  return <Page title="Listing">{null}</Page>;
}
