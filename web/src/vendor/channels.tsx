// The Channels page (decisions §26): a thin page of sections, each its own component: the vendor's
// channels and their keys (channel-list.tsx); the calendar feed comes as a section of its own.
import { Page } from '../ui.tsx';
import { ChannelList } from './channel-list.tsx';

export function ChannelsPage() {
  return (
    <Page title="Channels">
      <ChannelList />
    </Page>
  );
}
