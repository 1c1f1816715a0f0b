import { Page } from '../ui.tsx';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is nothing here. <a href="/">Browse listings</a>
      </p>
    </Page>
  );
}
