// The widget's shell: the product's name, a close button, the Chat and Ideas tabs, the offline
// notice, and the live region that reads new replies out.
import { useRef, useState } from 'preact/hooks';
import type { WidgetApi } from './api.js';
import type { Chat } from './chat.js';
import type { SessionKeeper } from './session.js';
import { useStore, type Store } from './store.js';
import type { WidgetConfig } from './types.js';
import { ChatView } from './views/chat-view.js';
import { IdeasView } from './views/ideas-view.js';

export interface AppProps {
  config: WidgetConfig;
  api: WidgetApi;
  chat: Chat;
  sessions: SessionKeeper;
  online: Store<{ online: boolean }>;
  /** The host page named its user (data-identity-token). */
  identified: boolean;
  onClose(): void;
}

const TABS = [
  { id: 'chat', label: 'Chat' },
  { id: 'ideas', label: 'Ideas' },
] as const;
type Tab = (typeof TABS)[number]['id'];

export function App({ config, api, chat, sessions, online, identified, onClose }: AppProps) {
  const [tab, setTab] = useState<Tab>('chat');
  const [ideasSeen, setIdeasSeen] = useState(false);
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const { online: isOnline } = useStore(online);
  const { announcement } = useStore(chat.store);
  const signInNeeded = config.require_identity && !identified;

  const select = (next: Tab, focus = false) => {
    setTab(next);
    if (next === 'ideas') setIdeasSeen(true);
    if (focus) tabs.current[next]?.focus();
  };
  // The tabs pattern of the ARIA Authoring Practices: arrows move between tabs, Home and End to the ends.
  const onTabKey = (event: KeyboardEvent) => {
    const index = TABS.findIndex((item) => item.id === tab);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(TABS[(moves[event.key] + TABS.length) % TABS.length].id, true);
  };

  return (
    <div class="widget">
      <header class="head">
        <h1>{config.product.name}</h1>
        <button type="button" class="close" aria-label="Close support" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <main class="main">
      {!signInNeeded && (
      <div role="tablist" aria-label="Support" class="tabs" onKeyDown={onTabKey}>
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`tab-${item.id}`}
            aria-controls={`panel-${item.id}`}
            aria-selected={tab === item.id}
            tabIndex={tab === item.id ? 0 : -1}
            ref={(element) => void (tabs.current[item.id] = element)}
            onClick={() => select(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      )}
      <p role="status" class={isOnline ? 'offline hidden' : 'offline'}>
        {isOnline ? '' : 'You are offline. Messages you send now go out once the connection is back.'}
      </p>
      {signInNeeded ? (
        <p class="notice">Sign in to chat with {config.product.name}.</p>
      ) : (
        <>
          <section role="tabpanel" id="panel-chat" aria-labelledby="tab-chat" hidden={tab !== 'chat'} class="panel">
            <ChatView chat={chat} greeting={config.greeting} online={isOnline} api={api} sessions={sessions} />
          </section>
          <section role="tabpanel" id="panel-ideas" aria-labelledby="tab-ideas" hidden={tab !== 'ideas'} class="panel">
            {ideasSeen && <IdeasView api={api} sessions={sessions} needsSession={!config.ideas_public} />}
          </section>
        </>
      )}
      <div class="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
      </main>
    </div>
  );
}
