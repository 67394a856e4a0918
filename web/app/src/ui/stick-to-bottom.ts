// Keeps a scrolling list at its newest (bottom) end while the reader is there: when it is first
// shown, when an item is added, when its box changes size (the window, the reply box growing) and
// when an image in it loads. A reader who scrolled up to read earlier items is left where they
// are, unless `force` says the newest item is their own (what they just sent).
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** How close to the end still counts as "at the end" (a line's worth, for rounding and a nudge). */
const AT_END_PX = 48;

export function useStickToBottom<T extends HTMLElement>(itemCount: number, force: boolean) {
  const ref = useRef<T>(null);
  const pinned = useRef(true);
  const toEnd = () => {
    const element = ref.current;
    if (element) element.scrollTop = element.scrollHeight;
  };

  useLayoutEffect(() => {
    if (pinned.current || force) {
      pinned.current = true;
      toEnd();
    }
  }, [itemCount]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const follow = () => { if (pinned.current) toEnd(); };
    const onScroll = () => { pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX; };
    element.addEventListener('scroll', onScroll, { passive: true });
    // `load` does not bubble: an image's is caught on the way down.
    element.addEventListener('load', follow, true);
    const resized = new ResizeObserver(follow);
    resized.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      element.removeEventListener('load', follow, true);
      resized.disconnect();
    };
  }, []);
  return ref;
}
