import { Page } from '../ui.tsx';

// placeholder: the customer-site part of issue 25 builds the embeddable storefront
export function EmbedApp() {
  return <Page title="Storefront">{null}</Page>;
}
