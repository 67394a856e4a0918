// Single-key shortcuts (J/K in the triage queue, M and Z in a conversation, / for search): never while
// the person types in a field or a dialog is open, never with a modifier held.
import { useEffect, useRef } from 'preact/hooks';

/** Whether a key press is free to be a shortcut. */
export const isShortcutKey = (event: KeyboardEvent) =>
  !event.defaultPrevented && !event.ctrlKey && !event.metaKey && !event.altKey &&
  !(event.target as Element | null)?.closest?.('input, textarea, select, [contenteditable], dialog');

/** Calls the latest `handler` when `key` (a single character, either case) is pressed as a shortcut. */
export function useShortcut(key: string, handler: () => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!isShortcutKey(event) || event.key.toLowerCase() !== key) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [key]);
}
