// The calendar feed section of the Channels page (decisions §24, §26): the feed's secret URL read-only,
// `Copy`, and `Rotate`, which asks first because calendars subscribed to the old URL stop receiving it.
import { useId, useState } from 'preact/hooks';
import { api, call } from '../api.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorMessage, Field, Loading, Notice, useAction } from '../ui.tsx';
import { useLoad } from './data.ts';

const feedApi = {
  get: () => call(() => api.GET('/api/v1/booking/vendor/calendar-feed/')),
  rotate: () => call(() => api.POST('/api/v1/booking/vendor/calendar-feed/rotate/')),
};

function RotateDialog({ onRotated, onClose }: { onRotated: (url: string) => void; onClose: () => void }) {
  const rotate = useAction(async () => onRotated((await feedApi.rotate()).url));
  return (
    <ConfirmDialog
      title="Replace the calendar feed URL?"
      confirmText="Yes, rotate"
      cancelText="Keep this URL"
      busy={rotate.busy}
      onConfirm={rotate.run}
      onClose={onClose}
    >
      <ErrorMessage error={rotate.error} />
      <p>
        The current URL stops working at once: calendars subscribed to it no longer receive your bookings
        until you subscribe them to the new one.
      </p>
    </ConfirmDialog>
  );
}

export function CalendarFeedSection() {
  const headingId = useId();
  const feed = useLoad(feedApi.get, []);
  const [rotated, setRotated] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const url = rotated ?? feed.data?.url;
  return (
    <section class="stack narrow" aria-labelledby={headingId}>
      <h2 id={headingId}>Calendar feed</h2>
      <p>
        Subscribe to this address in Google Calendar, Outlook or Apple Calendar to see every requested,
        approved and confirmed booking there. Anyone who has it can see your bookings: share it only with your
        team's calendars.
      </p>
      <ErrorMessage error={feed.error} />
      {!url ? (
        !feed.error && <Loading what="Loading the feed URL" />
      ) : (
        <>
          <Field label="Calendar feed URL" type="url" readOnly value={url} onValue={() => {}} />
          <div class="row">
            <CopyButton text={url} what="the URL" />
            <button type="button" class="button" onClick={() => setAsking(true)}>
              Rotate
            </button>
          </div>
          {rotated && <Notice>New URL made: the old one no longer works.</Notice>}
        </>
      )}
      {asking && (
        <RotateDialog
          onRotated={(next) => {
            setRotated(next);
            setAsking(false);
          }}
          onClose={() => setAsking(false)}
        />
      )}
    </section>
  );
}
