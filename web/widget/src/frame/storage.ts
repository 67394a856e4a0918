// localStorage, namespaced per widget key, that degrades to memory where a browser refuses storage
// to a third-party frame (blocked cookies and site data): the widget still works, for this page view.

import type { KeyValueStore } from './types.js';

function browserStorage(): Storage | null {
  try {
    const storage = window.localStorage;
    const probe = '__loopdesk_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

export function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const values = new Map<string, string>();
  return {
    getItem: (name) => values.get(name) ?? null,
    setItem: (name, value) => void values.set(name, value),
    removeItem: (name) => void values.delete(name),
  };
}

export function widgetStore(widgetKey: string, storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = browserStorage() ?? memoryStorage()): KeyValueStore {
  const full = (name: string) => `loopdesk:${widgetKey}:${name}`;
  return {
    get<T>(name: string): T | null {
      const raw = storage.getItem(full(name));
      if (raw === null) return null;
      try {
        return JSON.parse(raw) as T;
      } catch {
        return null;
      }
    },
    set(name, value) {
      try {
        storage.setItem(full(name), JSON.stringify(value));
      } catch {
        // Quota exceeded: the value lives on in memory for this page view (the callers keep their own copy).
      }
    },
    remove(name) {
      storage.removeItem(full(name));
    },
  };
}
