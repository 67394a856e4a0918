// Loading state for one request (or a few in parallel): what the screens read while it runs,
// when it failed, and after. A newer load wins over an older one still in flight.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again; the current data stays on screen meanwhile. */
  reload(): Promise<void>;
  /**
   * Replaces the data in place (after a write whose answer is the new state), or changes it from
   * the latest state (a live event: two events handled before a render each see the other's
   * change); a load on its way is made again.
   */
  set(data: T | ((latest: T) => T)): void;
}

export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const generation = useRef(0);
  /** Whether the newest load is still on its way. */
  const loadPending = useRef(false);
  // One reload for the component's life, always loading what the screen shows now: a caller that
  // kept an older render's reload (a timer set by a live event before the filters changed) would
  // otherwise load the old filters' data and, being the newest load, win over the current one.
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    loadPending.current = true;
    setState((previous) => ({ ...previous, loading: true }));
    try {
      const data = await latestLoad.current();
      if (mine === generation.current) {
        loadPending.current = false;
        setState({ data, error: undefined, loading: false });
      }
    } catch (error) {
      if (mine === generation.current) {
        loadPending.current = false;
        setState((previous) => ({ data: previous.data, error, loading: false }));
      }
    }
  }, []);
  useEffect(() => {
    // A different resource (new deps) starts empty rather than showing the previous one's data.
    setState({ data: undefined, error: undefined, loading: true });
    void reload();
  }, deps);
  // A change set while a load is on its way (a live event's) would be undone by that load's older
  // answer: the load is dropped and the data loaded again, after the change.
  const set = useCallback((data: T | ((latest: T) => T)) => {
    setState((previous) => ({
      data: typeof data === 'function' ? (previous.data === undefined ? undefined : (data as (latest: T) => T)(previous.data)) : data,
      error: undefined,
      loading: loadPending.current,
    }));
    if (loadPending.current) void reload();
  }, []);
  return { ...state, reload, set };
}
