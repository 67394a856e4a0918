// A modal dialog on the native <dialog>: focus moves in and is trapped, Escape closes, focus
// returns to what opened it. A dialog opened to type in (search, a form) has the focus in its first
// text field, so typing goes there at once; others keep the native choice (the close button).
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

const TEXT_FIELD = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not(:disabled), textarea:not(:disabled)';

export function Dialog({ title, close, children, wide }: { title: string; close: () => void; children: ComponentChildren; wide?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLElement>(TEXT_FIELD)?.focus();
    return () => opener?.focus?.();
  }, []);
  return (
    <dialog ref={dialog} class={`dialog ${wide ? 'dialog-wide' : ''}`} aria-labelledby={titleId} onClose={close} onCancel={(event) => { event.preventDefault(); close(); }}>
      <div class="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="icon-button" onClick={close}><span aria-hidden="true">×</span><span class="visually-hidden">Close</span></button>
      </div>
      {children}
    </dialog>
  );
}
