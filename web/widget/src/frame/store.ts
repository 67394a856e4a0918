// A value that components subscribe to (useStore): enough state management for a widget.
import { useEffect, useState } from 'preact/hooks';

export class Store<T extends object> {
  private listeners = new Set<(state: T) => void>();

  constructor(private current: T) {}

  get state(): T {
    return this.current;
  }

  update(changes: Partial<T>): void {
    this.current = { ...this.current, ...changes };
    for (const listener of this.listeners) listener(this.current);
  }

  subscribe(listener: (state: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function useStore<T extends object>(store: Store<T>): T {
  const [state, setState] = useState(store.state);
  useEffect(() => {
    setState(store.state);
    return store.subscribe(setState);
  }, [store]);
  return state;
}
