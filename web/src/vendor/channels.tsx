// The Channels page (decisions §24, §26): a thin page of sections, each its own component: the vendor's
// channels and their keys (channel-list.tsx), and the calendar feed (calendar-feed.tsx).
import { Page } from '../ui.tsx';
import { CalendarFeedSection } from './calendar-feed.tsx';
import { ChannelList } from './channel-list.tsx';

export function ChannelsPage() {
  return (
    <Page title="Channels">
      <ChannelList />
      <CalendarFeedSection />
    </Page>
  );
}
