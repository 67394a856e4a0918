// The messages the loader (widget.js, on the host page) and the frame exchange with postMessage.
// Each side checks where a message comes from before it acts on it: the loader only listens to its
// own iframe at the server's origin, the frame only to its parent at an origin product.domain allows.

export const SOURCE = 'loopdesk';

/** Frame → loader. `ready`: the frame is listening; `close`: the visitor closed it (Escape or the close button). */
export type FrameMessage = { source: typeof SOURCE; type: 'ready' } | { source: typeof SOURCE; type: 'close' };

/** Loader → frame, sent to the server's origin only. `open`: the widget was just opened, focus belongs inside. */
export type LoaderMessage =
  | { source: typeof SOURCE; type: 'init'; identityToken: string | null }
  | { source: typeof SOURCE; type: 'open' };

export function isMessage<T extends { type: string }>(data: unknown, types: readonly T['type'][]): data is T {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as { source?: unknown; type?: unknown };
  return message.source === SOURCE && typeof message.type === 'string' && (types as readonly string[]).includes(message.type);
}
