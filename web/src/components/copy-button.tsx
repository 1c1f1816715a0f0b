import { useState } from 'preact/hooks';

/**
 * A button that copies `text` to the clipboard and says, in a live region, whether it did; when the
 * browser refuses, it tells the reader to select `what` and copy it by hand.
 */
export function CopyButton({ text, label = 'Copy', what }: { text: string; label?: string; what: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <>
      <button type="button" class="button" onClick={copy}>
        {label}
      </button>
      <span role="status">
        {copied === true ? 'Copied.' : copied === false ? `Could not copy: select ${what} and copy it.` : ''}
      </span>
    </>
  );
}
