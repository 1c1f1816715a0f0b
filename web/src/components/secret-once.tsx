// A secret the API shows once (a webhook endpoint's signing secret, a channel's key): read-only, with a
// button that copies it and one that hides it. The page keeps it only until it is hidden or left.
import { TextArea } from '../ui.tsx';
import { CopyButton } from './copy-button.tsx';

export function SecretOnce({
  label,
  value,
  hint,
  copyLabel = 'Copy',
  hideLabel = 'Hide',
  onHide,
}: {
  label: string;
  value: string;
  hint: string;
  copyLabel?: string;
  hideLabel?: string;
  onHide: () => void;
}) {
  return (
    <div class="card stack">
      <TextArea label={label} readOnly rows={2} value={value} hint={hint} />
      <div class="row">
        <CopyButton text={value} label={copyLabel} what="it" />
        <button type="button" class="button" onClick={onHide}>
          {hideLabel}
        </button>
      </div>
    </div>
  );
}
