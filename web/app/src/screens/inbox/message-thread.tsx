// The messages of a conversation, oldest first, kept scrolled to the newest; the team's internal
// notes among them, marked as such (the customer never sees them).
import { useEffect, useRef } from 'preact/hooks';
import type { Schemas } from '../../api/client.js';
import { Avatar } from '../../ui/badges.js';
import { ago, fullDate } from '../../ui/labels.js';

interface Props {
  messages: Schemas['Message'][];
  myMemberId: string | null;
  contactName: string | null;
}

export function MessageThread({ messages, myMemberId, contactName }: Props) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [messages.length]);
  return (
    <ol ref={list} class="thread" aria-label="Messages" aria-live="polite" aria-relevant="additions" tabIndex={0}>
      {messages.length === 0 && <li class="thread-empty muted">No messages yet.</li>}
      {messages.map((message) => {
        if (message.sender_type === 'system') {
          return <li key={message.id} class="message message-system"><p>{message.body}</p><time dateTime={message.created_at}>{ago(message.created_at)}</time></li>;
        }
        const fromTeam = message.sender_type === 'agent';
        const name = fromTeam ? (message.sender_id === myMemberId ? 'You' : (message.sender_name ?? 'Team')) : (message.sender_name ?? contactName ?? 'Visitor');
        return (
          <li key={message.id} class={`message ${fromTeam ? 'message-team' : 'message-contact'} ${message.internal ? 'message-note' : ''}`}>
            <Avatar name={name === 'You' ? message.sender_name : name} small />
            <div class="message-bubble">
              <div class="message-head">
                <span class="message-author">{name}</span>
                {message.internal && <span class="note-label">Internal note</span>}
                <time dateTime={message.created_at} title={fullDate(message.created_at)}>{ago(message.created_at)}</time>
              </div>
              <p class="message-body">{message.body}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
