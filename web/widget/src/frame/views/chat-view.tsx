// The chat view: the conversation (with the messages still on their way), the rating once the
// team resolved it, and the composer. Enter sends, Shift+Enter starts a new line. Before a
// conversation starts, the help center's articles (suggested, then matching the message being
// written) sit above the composer, and an article opened takes the view's place until Back.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetApi } from '../api.js';
import type { Chat } from '../chat.js';
import { HelpArticle, HelpSuggestions } from '../help/help-views.js';
import type { SessionKeeper } from '../session.js';
import { useStore } from '../store.js';
import type { VisitorMessage } from '../types.js';
import { Rating } from './rating.js';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function Message({ message }: { message: VisitorMessage }) {
  const mine = message.sender_type === 'contact';
  return (
    <li class={`message ${message.sender_type}`}>
      <span class="visually-hidden">{mine ? 'You' : message.sender_name || 'Support'}: </span>
      {!mine && message.sender_type !== 'system' && <span class="sender" aria-hidden="true">{message.sender_name || 'Support'}</span>}
      <p class="body">{message.body}</p>
      <time dateTime={message.created_at}>{time(message.created_at)}</time>
    </li>
  );
}

export interface ChatViewProps {
  chat: Chat;
  greeting: string | null;
  online: boolean;
  /** For the help center's articles. */
  api: WidgetApi;
  sessions: SessionKeeper;
}

export function ChatView({ chat, greeting, online, api, sessions }: ChatViewProps) {
  const { loading, conversation, messages, queue, problem } = useStore(chat.store);
  const [draft, setDraft] = useState('');
  const [reading, setReading] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const pending = queue.filter((item) => item.conversationId === (conversation?.id ?? null));

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'end', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }, [messages.length, pending.length]);

  const submit = (event: Event) => {
    event.preventDefault();
    const body = draft.trim();
    if (!body) return;
    chat.send(body);
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
  };

  if (reading) return <HelpArticle api={api} sessions={sessions} id={reading} onBack={() => setReading(null)} />;
  const fresh = !loading && conversation === null && pending.length === 0;

  return (
    <div class={fresh ? 'chat fresh' : 'chat'}>
      <ol class="messages" ref={list} aria-label="Conversation" aria-busy={loading}>
        {greeting && <li class="message agent greeting"><p class="body">{greeting}</p></li>}
        {messages.map((message) => <Message key={message.id} message={message} />)}
        {pending.map((item) => (
          <li key={item.id} class="message contact pending">
            <span class="visually-hidden">You: </span>
            <p class="body">{item.body}</p>
            <span class="state">{online ? 'Sending…' : 'Waiting for the connection'}</span>
          </li>
        ))}
      </ol>
      {problem && (
        <div role="alert" class="problem">
          <p>{problem}</p>
          <button type="button" onClick={() => chat.dismissProblem()}>Dismiss</button>
        </div>
      )}
      {conversation?.status === 'resolved' && (
        <div class="resolved">
          <Rating rating={conversation.rating} onRate={(rating) => void chat.rate(rating)} />
          <button type="button" class="link" onClick={() => chat.startNew()}>Start a new conversation</button>
        </div>
      )}
      {fresh && <HelpSuggestions api={api} draft={draft} onOpen={setReading} />}
      <form class="composer" onSubmit={submit}>
        <label for="message" class="visually-hidden">Message</label>
        <textarea
          id="message"
          rows={2}
          maxLength={50000}
          placeholder="Write a message…"
          value={draft}
          onInput={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          data-autofocus
        />
        <button type="submit">Send</button>
      </form>
    </div>
  );
}
