// The Channels page (decisions §24, §26): one section component per way bookings leave the dashboard, each
// in its own file, so a section is added by one line here.
import { Page } from '../ui.tsx';
import { CalendarFeedSection } from './calendar-feed.tsx';

export function ChannelsPage() {
  return (
    <Page title="Channels">
      <CalendarFeedSection />
    </Page>
  );
}
