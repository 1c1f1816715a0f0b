// A secret the API shows once (a webhook endpoint's signing secret, a channel's key): read-only, with a
// button that copies it and one that hides it. The page keeps it only until it is hidden or left.
import { useState } from 'preact/hooks';
import { TextArea } from '../ui.tsx';

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
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div class="card stack">
      <TextArea label={label} readOnly rows={2} value={value} hint={hint} />
      <div class="row">
        <button type="button" class="button" onClick={copy}>
          {copyLabel}
        </button>
        <button type="button" class="button" onClick={onHide}>
          {hideLabel}
        </button>
        <span role="status">
          {copied === true ? 'Copied.' : copied === false ? 'Could not copy: select it and copy it.' : ''}
        </span>
      </div>
    </div>
  );
}
