// A modal dialog on the native <dialog>: focus moves in and is trapped, Escape closes, focus
// returns to what opened it.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export function Dialog({ title, close, children, wide }: { title: string; close: () => void; children: ComponentChildren; wide?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
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
