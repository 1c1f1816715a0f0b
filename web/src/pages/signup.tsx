import { Page } from '../ui.tsx';

// placeholder: the customer-site part of issue 25 builds this page
export function SignUpPage() {
  return <Page title="Sign up">{null}</Page>;
}
