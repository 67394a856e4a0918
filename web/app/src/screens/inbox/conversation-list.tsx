// The inbox's list: the views, the filters (one menu), one row per conversation (who, what, when),
// the pager.
import type { Schemas } from '../../api/client.js';
import type { LiveStatus } from '../../api/live.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { PriorityBadge, StatusBadge, VerifiedBadge } from '../../ui/badges.js';
import { ago, arrivalLabel, fullDate, waited } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, Pager } from '../../ui/page.js';
import type { Resource } from '../../use-resource.js';
import { InboxFilters, type ListFilters } from './inbox-filters.js';
import { SlaTimeLeft } from './conversation-sla.js';
import { WakesAt } from './snooze-control.js';

export { INBOX_DEFAULT_STATUS } from './inbox-filters.js';

/** Whose conversations the list shows: the signed-in member's, nobody's, or everyone's; or the snoozed ones (inbox-views.ts). */
export type InboxView = 'mine' | 'unassigned' | 'all' | 'snoozed';
const VIEWS: [InboxView, string][] = [['mine', 'Mine'], ['unassigned', 'Unassigned'], ['all', 'All'], ['snoozed', 'Snoozed']];

const LIVE_LABELS: Record<LiveStatus, string> = { live: 'Live', connecting: 'Connecting…', offline: 'Offline' };

interface Props {
  list: Resource<{ data: Schemas['Conversation'][]; pagination: Schemas['Pagination'] }>;
  filters: ListFilters & { view: InboxView };
  live: LiveStatus;
  openId: string | null;
  hrefOf: (id: string) => string;
  setFilter: (changes: Record<string, string | null>) => void;
  filterHref: (changes: Record<string, string | null>) => string;
  onPage: (offset: number) => void;
}

export function ConversationList({ list, filters, live, openId, hrefOf, setFilter, filterHref, onPage }: Props) {
  const { products, productName, memberName } = useSession();
  return (
    <>
      <div class="list-head">
        <h1 id="inbox-heading">Inbox</h1>
        <span class={`live live-${live}`} title="Updates arrive as customers write">{LIVE_LABELS[live]}</span>
        <InboxFilters filters={filters} setFilter={setFilter} />
      </div>
      <nav class="tabs inbox-views" aria-label="Views">
        {VIEWS.map(([view, label]) => (
          <Link key={view} href={filterHref({ view: view === 'all' ? null : view })} class="tab" aria-current={filters.view === view ? 'page' : undefined}>{label}</Link>
        ))}
      </nav>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <EmptyState title="All caught up">No conversation matches these filters.</EmptyState>
      ) : (
        <ul class="conversation-list" aria-label="Conversations">
          {list.data.data.map((conversation) => (
            <li key={conversation.id}>
              <Link href={hrefOf(conversation.id)} class="conversation-row" aria-current={conversation.id === openId ? 'true' : undefined}>
                <span class="row-top">
                  <span class="row-contact">
                    {conversation.contact?.name ?? conversation.contact?.email ?? 'Anonymous visitor'}
                    {conversation.contact?.verified && <VerifiedBadge />}
                  </span>
                  <time class="row-time" dateTime={conversation.updated_at}>{ago(conversation.updated_at)}</time>
                </span>
                <span class="row-title">{conversation.title}</span>
                {conversation.last_message && (
                  <span class="row-excerpt muted">
                    {conversation.last_message.sender_type === 'agent' ? 'Team: ' : ''}{conversation.last_message.excerpt}
                  </span>
                )}
                <span class="row-meta">
                  <StatusBadge status={conversation.status} />
                  <PriorityBadge priority={conversation.priority} quiet />
                  <SlaTimeLeft sla={conversation.sla} />
                  <span class="muted">{arrivalLabel(conversation)}{products.length > 1 ? ` · ${productName(conversation.product_id)}` : ''}</span>
                  {conversation.waiting_since && (
                    <span class="waiting" title={`Waiting for an answer since ${fullDate(conversation.waiting_since)}`}>
                      waiting {waited(conversation.waiting_since)}
                    </span>
                  )}
                  {conversation.snoozed_until && <WakesAt until={conversation.snoozed_until} />}
                  {conversation.assignee_id && <span class="muted row-assignee">{memberName(conversation.assignee_id)}</span>}
                  {conversation.tags.map((tag) => <span key={tag} class="tag">{tag}</span>)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pager label="Conversation pages" pagination={list.data.pagination} onPage={onPage} />}
    </>
  );
}
