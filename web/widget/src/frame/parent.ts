// The frame's side of the conversation with widget.js on the host page. The identity token is
// accepted only from the parent window, and only when the parent's origin is one product.domain
// allows (the same rule as the frame's `frame-ancestors`): another page cannot hand the frame a
// token, and the frame never sends anything secret to its parent.
import { originMatchesDomain } from '../../../../src/lib/host-domain.js';
import { isMessage, SOURCE, type FrameMessage, type LoaderMessage } from '../shared/protocol.js';

const INIT_TIMEOUT_MS = 3000;

export interface Parent {
  /** The host page's identity token (data-identity-token), null without one or outside a host page. */
  identityToken: Promise<string | null>;
  /** Asks the host page to close the widget (it moves focus back to the launcher). */
  close(): void;
}

/** `parentHost`: product.domain's host, `*` when any page may embed the widget, '' when only this server. */
export function connectToParent(parentHost: string, onOpen: () => void): Parent {
  const inFrame = window.parent !== window;
  const allowed = (origin: string) =>
    origin === location.origin || parentHost === '*' || (parentHost !== '' && originMatchesDomain(origin, parentHost));
  const post = (message: FrameMessage) => {
    // Nothing secret goes up: the parent's origin is not known before it answers.
    if (inFrame) window.parent.postMessage(message, '*');
  };

  const identityToken = new Promise<string | null>((resolve) => {
    if (!inFrame) return resolve(null);
    setTimeout(() => resolve(null), INIT_TIMEOUT_MS);
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent || !allowed(event.origin)) return;
      if (!isMessage<LoaderMessage>(event.data, ['init', 'open'])) return;
      if (event.data.type === 'init') resolve(typeof event.data.identityToken === 'string' ? event.data.identityToken : null);
      else onOpen();
    });
    post({ source: SOURCE, type: 'ready' });
  });

  return { identityToken, close: () => post({ source: SOURCE, type: 'close' }) };
}
