// widget.js, the loader on the host page (a classic script: <script src="{base}/widget.js"
// data-widget-key="wk_…" async>). It adds the launcher button "Open support" and, on first
// intent, the iframe of {base}/widget/frame/{widget_key}; it hands the frame the optional
// data-identity-token, sent to the server's origin only; it moves focus into the widget on
// open and back to the launcher on close (Escape, or the frame's close button).
import { isMessage, SOURCE, type FrameMessage, type LoaderMessage } from '../shared/protocol.js';
import css from './launcher.css?inline';

const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const CLOSE_ICON = 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z';
const icon = (path: string, name: string) => `<svg class="${name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;

/** Styles a host page's CSP cannot refuse (a constructed sheet), else a <style> element. */
function style(root: ShadowRoot): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch {
    const element = document.createElement('style');
    element.textContent = css;
    root.append(element);
  }
}

/** Adds the widget to the page once it has a body (an async script may run before there is one). */
function show(host: HTMLElement): void {
  if (document.body) document.body.append(host);
  else document.addEventListener('DOMContentLoaded', () => document.body.append(host), { once: true });
}

function start(script: HTMLScriptElement): void {
  const widgetKey = script.dataset.widgetKey;
  if (!widgetKey) return console.error('Loopdesk: the widget script needs data-widget-key="wk_…"');
  if (document.querySelector(`[data-loopdesk-widget="${CSS.escape(widgetKey)}"]`)) return;
  const identityToken = script.dataset.identityToken || null;
  const scriptUrl = new URL(script.src, document.baseURI);
  const frameUrl = new URL(`widget/frame/${encodeURIComponent(widgetKey)}`, scriptUrl).href;

  const host = document.createElement('div');
  host.dataset.loopdeskWidget = widgetKey;
  const root = host.attachShadow({ mode: 'open' });
  style(root);
  const launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.className = 'launcher';
  launcher.setAttribute('aria-label', 'Open support');
  launcher.setAttribute('aria-expanded', 'false');
  launcher.innerHTML = icon(CHAT_ICON, 'open-icon') + icon(CLOSE_ICON, 'close-icon');
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.id = 'loopdesk-panel';
  panel.hidden = true;
  launcher.setAttribute('aria-controls', panel.id);
  root.append(launcher, panel);

  let frame: HTMLIFrameElement | null = null;
  let ready = false;
  const post = (message: LoaderMessage) => frame?.contentWindow?.postMessage(message, scriptUrl.origin);
  const ensureFrame = (): HTMLIFrameElement => {
    if (frame) return frame;
    frame = document.createElement('iframe');
    frame.title = 'Support';
    frame.src = frameUrl;
    panel.append(frame);
    return frame;
  };
  // Focus moves to the frame only once its document says it is ready: an iframe focused while its
  // cross-origin document is still loading keeps the browser sending keys to this page (Chromium
  // routes them by the frame focused before the new document's process took over), even though
  // the field inside looks focused. Until then the focus stays on the launcher.
  const moveFocusInside = () => {
    frame!.focus();
    post({ source: SOURCE, type: 'open' });
  };
  const setOpen = (open: boolean) => {
    if (open === !panel.hidden) return;
    panel.hidden = !open;
    launcher.setAttribute('aria-expanded', String(open));
    if (open) {
      ensureFrame();
      if (ready) moveFocusInside();
    } else {
      launcher.focus();
    }
  };

  window.addEventListener('message', (event) => {
    if (!frame || event.source !== frame.contentWindow || event.origin !== scriptUrl.origin) return;
    if (!isMessage<FrameMessage>(event.data, ['ready', 'close'])) return;
    if (event.data.type === 'close') return setOpen(false);
    ready = true;
    post({ source: SOURCE, type: 'init', identityToken });
    if (!panel.hidden) moveFocusInside();
  });
  launcher.addEventListener('click', () => setOpen(panel.hidden));
  // Loaded ahead of the click, once a visitor shows intent: the widget opens ready.
  launcher.addEventListener('pointerenter', ensureFrame, { once: true });
  launcher.addEventListener('focus', ensureFrame, { once: true });
  root.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape' && !panel.hidden) setOpen(false);
  });

  // The product's colour on the launcher. A widget that cannot work here shows no launcher at all:
  // an unknown key, a disabled widget, or a page outside the product's domain (whose refusal
  // carries no CORS headers, so it fails like an unreachable server).
  fetch(new URL(`widget/v1/${encodeURIComponent(widgetKey)}/config`, scriptUrl), { credentials: 'omit' })
    .catch(() => {
      throw new Error(`${scriptUrl.origin} could not be reached, or does not serve this widget on this site (the product's domain)`);
    })
    .then(async (response) => {
      if (response.status === 404) throw new Error(`the widget key ${widgetKey} is unknown`);
      if (response.status === 403) throw new Error(`the widget ${widgetKey} is disabled, or not allowed on this site (the product's domain)`);
      const color = response.ok ? ((await response.json()) as { data?: { color?: unknown } }).data?.color : null;
      if (typeof color === 'string' && /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(color)) host.style.setProperty('--loopdesk-accent', color);
      show(host);
    })
    .catch((error: Error) => console.error(`Loopdesk: ${error.message}`));
}

const script = document.currentScript;
if (script instanceof HTMLScriptElement) start(script);
