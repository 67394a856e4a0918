// One conversation: its thread (the messages and internal notes, kept scrolled to the newest) and
// the reply box, with a details panel beside it (conversation-details.tsx: actions, status,
// priority, assignee, tags, linked issues, the contact, the summary and triage) that can be folded
// away, the choice kept in this browser. A customer's new message (a live event) appears without
// a reload, and so do a new summary and a linked issue's new status. Who else is viewing or typing
// shows above the reply box, and a reply that would cross another's asks first (presence.tsx).
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import type { paths } from '../../api/openapi.js';
import { useLiveEvents, type LiveEvent } from '../../api/live.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { VerifiedBadge } from '../../ui/badges.js';
import { Icon } from '../../ui/icons.js';
import { arrivalLabel, fullDate } from '../../ui/labels.js';
import { useShortcut } from '../../ui/shortcuts.js';
import { useStoredFlag } from '../../ui/stored-flag.js';
import { ErrorState, Loading, useTitle } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useResource } from '../../use-resource.js';
import { ConversationDetails } from './conversation-details.js';
import { CreateIssueDialog } from './create-issue.js';
import { MessageThread } from './message-thread.js';
import { PresenceNote, useConversationPresence, useReplyCollision } from './presence.js';
import { ReplyBox } from './reply-box.js';

type Conversation = Schemas['ConversationDetail'];
export type ConversationChanges = NonNullable<paths['/api/v1/conversations/{id}']['patch']['requestBody']>['content']['application/json'];

/** Whether a live event may change what the conversation's view shows (any issue's: linked or unlinked here, its state). */
function concernsConversation(event: LiveEvent, id: string): boolean {
  const data = event.data as Record<string, any>;
  switch (event.type) {
    case 'message.created': return data.conversation_id === id;
    case 'conversation.updated': return data.id === id;
    case 'conversation.sla_breached': return data.conversation?.id === id;
    case 'issue.created':
    case 'issue.updated': return true;
    default: return false;
  }
}

export function ConversationView({ id, backHref, changed }: { id: string; backHref: string; changed: () => void }) {
  const session = useSession();
  const conversation = useResource(() => ok(api.GET('/api/v1/conversations/{id}', { params: { path: { id } } })).then((answer) => answer.data), [id]);
  const [creatingIssue, setCreatingIssue] = useState(false);
  const [detailsShown, setDetailsShown] = useStoredFlag('loopdesk.conversation-details', true);
  useTitle(conversation.data?.title ?? 'Conversation');
  const myId = session.me.member?.id ?? null;
  const presence = useConversationPresence(id, myId);
  const collision = useReplyCollision(id, conversation.data?.messages, myId);

  // M assigns the open conversation to the signed-in member (not while typing).
  useShortcut('m', () => {
    if (myId && conversation.data && conversation.data.assignee_id !== myId) void assign(myId);
  });

  useLiveEvents((event) => {
    if (!conversation.data) {
      // Still loading: the answer on its way may have been read before this change, so it is asked again.
      if (concernsConversation(event, id)) void conversation.reload();
      return;
    }
    // Each change is made on the latest state: events handled before a render see each other's.
    if (event.type === 'message.created' && event.data.conversation_id === id) {
      const { conversation_id: _, ...plain } = event.data as unknown as Schemas['MessageEvent'];
      conversation.set((current) => (current.messages.some((m) => m.id === plain.id) ? current : { ...current, messages: [...current.messages, plain] }));
    } else if (event.type === 'conversation.updated' && event.data.id === id) {
      const { previous: _, ...next } = event.data as unknown as Conversation & { previous?: unknown };
      conversation.set((current) => ({ ...current, ...next, messages: next.messages ?? current.messages }));
    } else if (event.type === 'conversation.sla_breached') {
      // The breach carries the conversation as it is now: its SLA, with the breach, is all that changed.
      const breached = (event.data as unknown as Schemas['ConversationSlaBreach']).conversation;
      if (breached.id === id) conversation.set((current) => ({ ...current, sla: breached.sla }));
    } else if (event.type === 'issue.created' || event.type === 'issue.updated') {
      // The issue as its detail shows it: linked here or not (linked or unlinked anywhere), and its current state.
      const issue = event.data as unknown as Schemas['LinkedIssue'] & { linked_conversations: { id: string }[] };
      const linkedHere = issue.linked_conversations.some((linked) => linked.id === id);
      if (!linkedHere && !conversation.data.linked_issues.some((linked) => linked.id === issue.id)) return;
      conversation.set((current) => {
        const shown = current.linked_issues.some((linked) => linked.id === issue.id);
        if (!linkedHere && !shown) return current;
        const entry = { id: issue.id, shortcode: issue.shortcode, title: issue.title, status: issue.status };
        const kept = current.linked_issues.filter((linked) => linked.id !== issue.id);
        // Unlinked: gone; linked: kept in its place with its current state, or added last (the link is the newest).
        const linked_issues = !linkedHere ? kept : shown ? current.linked_issues.map((linked) => (linked.id === issue.id ? entry : linked)) : [...kept, entry];
        return { ...current, linked_issues };
      });
    }
  }, conversation.reload);

  if (!conversation.data) {
    return conversation.error ? <ErrorState error={conversation.error} retry={conversation.reload} /> : <Loading label="Loading the conversation…" />;
  }
  const data = conversation.data;

  const update = async (body: ConversationChanges, done: string) => {
    try {
      const answer = await ok(api.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body }));
      conversation.set({ ...(conversation.data ?? data), ...answer.data });
      announce(done);
      changed();
    } catch (error) {
      announce(describeError(error), 'error');
    }
  };
  const assign = (assignee: string | null) =>
    update({ assignee_id: assignee }, assignee ? `Assigned to ${assignee === myId ? 'you' : session.memberName(assignee)}` : 'Unassigned');

  const sent = (message: Schemas['Message']) => {
    const latest = conversation.data ?? data;
    if (!latest.messages.some((m) => m.id === message.id)) conversation.set({ ...latest, messages: [...latest.messages, message] });
    if (!message.internal) collision.acknowledge();
    // A reply stops SLA clocks, which no event reports: read the conversation's SLA again.
    if (latest.sla && !message.internal) void conversation.reload();
    changed();
  };

  const contact = data.contact;
  const detailsId = `details-${id}`;
  return (
    <article class={`conversation ${detailsShown ? '' : 'conversation-details-hidden'}`} aria-labelledby="conversation-title">
      <div class="conversation-primary">
        <header class="conversation-head">
          <Link href={backHref} class="back-link"><Icon name="back" size={16} />All conversations</Link>
          <div class="conversation-title-row">
            <h2 id="conversation-title">{data.title}</h2>
            {/* Beside the thread (wide screens) the panel folds away; below it, this jumps to it. */}
            <button type="button" class="button button-secondary button-small details-toggle" aria-expanded={detailsShown} aria-controls={detailsId}
              title={detailsShown ? 'Hide the details panel' : 'Show the details panel'} onClick={() => setDetailsShown(!detailsShown)}>
              <Icon name="panel" size={16} />Details
            </button>
            <button type="button" class="button button-secondary button-small details-jump"
              onClick={() => document.getElementById(detailsId)?.scrollIntoView({ block: 'start' })}>
              <Icon name="panel" size={16} />Go to details
            </button>
          </div>
          <p class="conversation-meta muted">
            <span class="contact-name">{contact?.name ?? 'Anonymous visitor'}</span>
            {contact?.verified && <VerifiedBadge />}
            {contact?.email && <> · <a href={`mailto:${contact.email}`}>{contact.email}</a></>}
            {' · '}{arrivalLabel(data)}
            {session.products.length > 1 && <> · {session.productName(data.product_id)}</>}
            {' · '}<time dateTime={data.created_at} title={fullDate(data.created_at)}>started {fullDate(data.created_at)}</time>
            {data.rating !== null && <> · rated {data.rating}/5</>}
            {data.type === 'idea' && <> · {data.upvotes} upvote{data.upvotes === 1 ? '' : 's'}</>}
          </p>
        </header>
        <MessageThread messages={data.messages} myMemberId={myId} contactName={contact?.name ?? null} />
        <PresenceNote others={presence.others} />
        <ReplyBox conversationId={id} sent={sent} emailTo={data.source === 'email' ? (contact?.email ?? null) : null}
          typing={presence.typing} warnBeforeReply={collision.warning} />
      </div>
      <ConversationDetails id={id} conversation={data} update={update} assign={assign} createIssue={() => setCreatingIssue(true)} reload={() => void conversation.reload()}
        replace={(next) => { conversation.set(next); changed(); }} />
      {creatingIssue && (
        <CreateIssueDialog
          conversation={data}
          close={() => setCreatingIssue(false)}
          linked={() => void conversation.reload()}
        />
      )}
    </article>
  );
}
