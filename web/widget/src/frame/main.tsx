// The frame's entry: read what the server put on #app, hear from the host page, load the product's
// widget settings, then render. Focus moves inside whenever the host page opens the widget.
import { render, type ComponentChild } from 'preact';
import { ApiError, createWidgetApi, OfflineError, type WidgetApi } from './api.js';
import { App } from './app.js';
import { backoffDelay, waitToRetry } from './backoff.js';
import { Chat } from './chat.js';
import { connectToParent } from './parent.js';
import { SessionKeeper } from './session.js';
import { widgetStore } from './storage.js';
import { Store } from './store.js';
import type { WidgetConfig } from './types.js';
import './frame.css';

const root = document.getElementById('app')!;
const widgetKey = root.dataset.widgetKey!;
const online = new Store({ online: navigator.onLine });
window.addEventListener('online', () => online.update({ online: true }));
window.addEventListener('offline', () => online.update({ online: false }));

/** Whether the widget was opened: focus belongs inside, on the field the active view marks. */
let opened = false;
function focusInside(): void {
  opened = true;
  (document.querySelector<HTMLElement>('[role="tabpanel"]:not([hidden]) [data-autofocus]') ?? root).focus();
}

const parent = connectToParent(root.dataset.parentHost ?? '', focusInside);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !event.defaultPrevented) parent.close();
});
// Relative to the frame's own URL (/widget/frame/{key}), so a server behind a path prefix works too.
const api = createWidgetApi(new URL(`../v1/${encodeURIComponent(widgetKey)}/`, location.href).href, (reachable) => {
  if (reachable !== online.state.online) online.update({ online: reachable });
});

/** Renders into #app, replacing the server's "Loading…" the first time. */
let mounted = false;
function mount(view: ComponentChild): void {
  if (!mounted) root.replaceChildren();
  mounted = true;
  render(view, root);
}

function say(text: string): void {
  mount(<main class="main"><p class="notice">{text}</p></main>);
}

async function loadConfig(api: WidgetApi): Promise<WidgetConfig | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await api.request<{ data: WidgetConfig }>('GET', 'config')).data;
    } catch (error) {
      if (error instanceof ApiError && !error.transient) {
        say(error.status === 403 ? 'Support is not available on this page.' : 'This support widget could not be found.');
        return null;
      }
      if (attempt === 0) say(error instanceof OfflineError ? 'You are offline. Support loads once the connection is back.' : 'Support is busy, trying again…');
      await waitToRetry(backoffDelay(attempt));
    }
  }
}

const [identityToken, config] = await Promise.all([parent.identityToken, loadConfig(api)]);
if (config) {
  const store = widgetStore(widgetKey);
  const sessions = new SessionKeeper({ api, store, identityToken, proofOfWork: config.proof_of_work });
  const chat = new Chat(api, sessions, store);
  if (/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(config.color ?? '')) document.documentElement.style.setProperty('--accent', config.color);
  mount(<App config={config} api={api} chat={chat} sessions={sessions} online={online} identified={identityToken !== null} onClose={parent.close} />);
  // Opened before the settings arrived: the field to type in exists only now.
  if (opened && (document.activeElement === root || document.activeElement === document.body)) focusInside();
  sessions.prepare();
  void chat.load();
}
