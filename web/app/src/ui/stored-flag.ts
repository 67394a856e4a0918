// A yes/no choice a person makes once and expects kept (a panel folded away), remembered in this
// browser's localStorage. Storage refused (a private window, a full quota) only means the choice
// lasts until the page is left.
import { useState } from 'preact/hooks';

function read(key: string): boolean | null {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? null : stored === '1';
  } catch {
    return null;
  }
}

export function useStoredFlag(key: string, initial: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key) ?? initial);
  const set = (next: boolean) => {
    setValue(next);
    try {
      localStorage.setItem(key, next ? '1' : '0');
    } catch {
      // Kept for this page only.
    }
  };
  return [value, set];
}
