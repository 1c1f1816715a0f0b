import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal question (the native <dialog>, opened with showModal): the browser moves focus into it, keeps
 * it there, and closes it on Escape, which answers `onClose` like the cancel button.
 */
export function ConfirmDialog({
  title,
  children,
  confirmText,
  cancelText,
  busy = false,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ComponentChildren;
  confirmText: string;
  cancelText: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div class="row">
        <button type="button" class="button danger" disabled={busy} onClick={onConfirm}>
          {confirmText}
        </button>
        <button type="button" class="button" onClick={onClose}>
          {cancelText}
        </button>
      </div>
    </dialog>
  );
}
