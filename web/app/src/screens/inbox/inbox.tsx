// The inbox: conversations (filtered by the query string, one request per page) beside the one
// that is open. Live events keep both current without a reload. On a phone the list and the
// conversation take turns.
import { useRef } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { useLiveEvents, useLiveStatus } from '../../api/live.js';
import { match, navigate, useLocation, withQuery } from '../../router.js';
import { useResource } from '../../use-resource.js';
import { EmptyState, useTitle } from '../../ui/page.js';
import { ConversationList, INBOX_DEFAULT_STATUS, type InboxView } from './conversation-list.js';
import { ConversationView } from './conversation-view.js';
import { viewQuery } from './inbox-views.js';

const PAGE_SIZE = 50;

export function Inbox({ path }: { path: string }) {
  const { query } = useLocation();
  const openId = match('/inbox/:id', path)?.id ?? null;
  useTitle('Inbox');
  const filters = {
    status: query.get('status') ?? INBOX_DEFAULT_STATUS,
    priority: query.get('priority') ?? '',
    type: query.get('type') ?? '',
    product_id: query.get('product') ?? '',
    view: (query.get('view') ?? 'all') as InboxView,
    sla: query.get('sla') ?? '',
    sort: query.get('sort') ?? '',
    offset: Number(query.get('offset') ?? 0) || 0,
  };
  const key = JSON.stringify(filters);
  const list = useResource(() => ok(api.GET('/api/v1/conversations', {
    params: {
      query: {
        limit: PAGE_SIZE, offset: filters.offset,
        ...(filters.status !== 'all' && { status: filters.status }),
        ...(filters.priority && { priority: filters.priority }),
        ...(filters.type && { type: filters.type }),
        ...(filters.product_id && { product_id: filters.product_id }),
        ...viewQuery(filters.view),
        ...((filters.sla === 'breached' || filters.sla === 'running') && { sla: filters.sla }),
        ...((filters.sort === 'waiting' || filters.sort === 'due') && { sort: filters.sort }),
      },
    },
  })), [key]);

  // Several events in a burst (a message and its conversation's update) reload the list once.
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useLiveEvents((event) => {
    if (!event.type.startsWith('conversation.') && event.type !== 'message.created') return;
    clearTimeout(pending.current);
    pending.current = setTimeout(() => void list.reload(), 250);
  }, list.reload);
  const live = useLiveStatus();

  const filterHref = (changes: Record<string, string | null>) =>
    withQuery(openId ? `/inbox/${openId}` : '/inbox', query, { ...changes, offset: null });
  const setFilter = (changes: Record<string, string | null>) => navigate(filterHref(changes));
  const listHref = (id?: string) => withQuery(id ? `/inbox/${id}` : '/inbox', query, {});

  return (
    <div class={`inbox ${openId ? 'inbox-has-open' : ''}`}>
      <section class="inbox-list" aria-labelledby="inbox-heading">
        <ConversationList
          list={list}
          filters={filters}
          live={live}
          openId={openId}
          hrefOf={listHref}
          setFilter={setFilter}
          filterHref={filterHref}
          onPage={(offset) => navigate(withQuery(openId ? `/inbox/${openId}` : '/inbox', query, { offset: String(offset) }))}
        />
      </section>
      <section class="inbox-detail" aria-label="Conversation">
        {openId ? (
          <ConversationView
            key={openId}
            id={openId}
            backHref={listHref()}
            changed={() => void list.reload()}
          />
        ) : (
          <EmptyState title="No conversation selected">Pick one from the list to read it and reply.</EmptyState>
        )}
      </section>
    </div>
  );
}
