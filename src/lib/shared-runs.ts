// Work that concurrent callers asking for the same key share: while a run for a key is in flight,
// asking again joins it rather than starting another; once it settles (resolved or rejected), the
// next ask starts a new one.
export function sharedRuns<T>(): (key: string, work: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, work) => {
    let run = running.get(key);
    if (!run) {
      run = work().finally(() => running.delete(key));
      running.set(key, run);
    }
    return run;
  };
}
