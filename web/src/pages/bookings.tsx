import { Page } from '../ui.tsx';

// placeholder: the customer-site part of issue 25 builds this page
export function MyBookingsPage() {
  return <Page title="My bookings">{null}</Page>;
}
