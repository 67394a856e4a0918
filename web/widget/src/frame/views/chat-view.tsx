// The chat view: the conversation (with the messages still on their way), the rating once the
// team resolved it, and the composer. Enter sends, Shift+Enter starts a new line.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Chat } from '../chat.js';
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

export function ChatView({ chat, greeting, online }: { chat: Chat; greeting: string | null; online: boolean }) {
  const { loading, conversation, messages, queue, problem } = useStore(chat.store);
  const [draft, setDraft] = useState('');
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

  return (
    <div class="chat">
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
