// The messages of a conversation, oldest first, kept scrolled to the newest while the reader is
// there (ui/stick-to-bottom.ts); the team's internal notes among them, marked as such (the customer
// never sees them).
import type { Schemas } from '../../api/client.js';
import { Avatar } from '../../ui/badges.js';
import { ago, fullDate } from '../../ui/labels.js';
import { useStickToBottom } from '../../ui/stick-to-bottom.js';

interface Props {
  messages: Schemas['Message'][];
  myMemberId: string | null;
  contactName: string | null;
}

export function MessageThread({ messages, myMemberId, contactName }: Props) {
  const newest = messages.at(-1);
  const list = useStickToBottom<HTMLOListElement>(messages.length, myMemberId !== null && newest?.sender_id === myMemberId);
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
              {message.attachments.length > 0 && <Attachments attachments={message.attachments} />}
              {message.delivery && <Delivery delivery={message.delivery} />}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

type Attachment = Schemas['Message']['attachments'][number];

const attachmentUrl = (attachment: Attachment) => `/api/v1/attachments/${attachment.id}`;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A message's files: images as thumbnails, the rest as links; both download with the session. */
function Attachments({ attachments }: { attachments: Attachment[] }) {
  return (
    <ul class="attachments" aria-label="Attachments">
      {attachments.map((attachment) => (
        <li key={attachment.id}>
          <a href={attachmentUrl(attachment)} download={attachment.filename} class="attachment">
            {IMAGE_TYPES.has(attachment.content_type)
              ? <img src={attachmentUrl(attachment)} alt={attachment.filename} class="attachment-thumb" loading="lazy" />
              : <span class="attachment-name">{attachment.filename}</span>}
            <span class="muted small">{formatSize(attachment.size)}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const DELIVERY_LABELS = { pending: 'Sending by email…', sent: 'Sent by email', failed: 'Not delivered' } as const;

/** Whether an emailed reply reached the customer's mail server. */
function Delivery({ delivery }: { delivery: NonNullable<Schemas['Message']['delivery']> }) {
  return (
    <p class={`delivery delivery-${delivery.status}`} role={delivery.status === 'failed' ? 'alert' : undefined}>
      {DELIVERY_LABELS[delivery.status]}{delivery.status === 'failed' && delivery.error ? `: ${delivery.error}` : ''}
    </p>
  );
}
