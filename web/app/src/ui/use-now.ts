// The time now, for what counts down on screen (an SLA's time left). One timer for the whole app,
// running only while something shows such a time: each tick re-renders just those components, and
// nothing is fetched. The labels count whole minutes, so a tick every 15 s keeps them at most that
// late; a breach the server records arrives as a live event anyway.
import { useEffect, useState } from 'preact/hooks';

const TICK_MS = 15_000;
const subscribers = new Set<(now: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** The time of this render; the component renders again at each tick (and whenever else it would). */
export function useNow(): number {
  const [, setNow] = useState(Date.now);
  useEffect(() => {
    subscribers.add(setNow);
    timer ??= setInterval(() => {
      const at = Date.now();
      subscribers.forEach((subscriber) => subscriber(at));
    }, TICK_MS);
    return () => {
      subscribers.delete(setNow);
      if (subscribers.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
  // Read now, not at the last tick: a render for new data (a breach just recorded) must not show
  // the time left as of up to a tick ago.
  return Date.now();
}
