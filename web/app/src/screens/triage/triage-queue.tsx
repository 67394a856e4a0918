// The Triage view: the open suggestions of every conversation, oldest first (GET /suggestions, one
// request a page, then one for the page's conversation titles), filtered by product and kind in the
// query string. Worked from the keyboard: J/K move the selection, A accepts, D dismisses, Enter
// opens the conversation. Live: a new suggestion joins, one accepted or dismissed anywhere leaves.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { useLiveEvents } from '../../api/live.js';
import { navigate, useLocation, withQuery } from '../../router.js';
import { useSession } from '../../session.js';
import { Select } from '../../ui/form.js';
import { SUGGESTION_KINDS, entries } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, PageHeader, Pager } from '../../ui/page.js';
import { isShortcutKey } from '../../ui/shortcuts.js';
import { useResource } from '../../use-resource.js';
import { TriageRow } from './triage-row.js';
import { decide, suggestionOf, type Suggestion } from './suggestions.js';

const PAGE_SIZE = 50;

interface Queue {
  data: Suggestion[];
  pagination: { total: number; limit: number; offset: number };
  /** Conversation titles by id. */
  titles: Map<string, string>;
}

async function loadQueue(filters: { product_id: string; kind: string; offset: number }): Promise<Queue> {
  const page = await ok(api.GET('/api/v1/suggestions', {
    params: {
      query: {
        limit: PAGE_SIZE, offset: filters.offset,
        ...(filters.product_id && { product_id: filters.product_id }),
        ...(filters.kind && { kind: filters.kind }),
      },
    },
  }));
  const ids = [...new Set(page.data.map((suggestion) => suggestion.conversation_id))];
  const conversations = ids.length === 0 ? [] : (await ok(api.GET('/api/v1/conversations', { params: { query: { id: ids.join(','), limit: 200 } } }))).data;
  return { ...page, titles: new Map(conversations.map((conversation) => [conversation.id, conversation.title])) };
}

/** A key press meant for the queue: not typed into a field, not a browser or system shortcut, not under a dialog. */
export function TriageQueue() {
  const { query } = useLocation();
  const { products } = useSession();
  const filters = { product_id: query.get('product') ?? '', kind: query.get('kind') ?? '', offset: Number(query.get('offset') ?? 0) || 0 };
  const queue = useResource(() => loadQueue(filters), [JSON.stringify(filters)]);
  const rows = queue.data?.data ?? [];

  // The selection follows its suggestion; when that one leaves, the row that takes its place.
  const [selected, setSelected] = useState<{ id: string | null; index: number }>({ id: null, index: 0 });
  const found = rows.findIndex((row) => row.id === selected.id);
  const current = rows.length === 0 ? -1 : found !== -1 ? found : Math.min(selected.index, rows.length - 1);
  const focusSelected = useRef(false);
  const acting = useRef(new Set<string>());

  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useLiveEvents((event) => {
    if (!suggestionOf(event)) return;
    clearTimeout(pending.current);
    pending.current = setTimeout(() => void queue.reload(), 250);
  }, queue.reload);

  const select = (index: number, { focus = false } = {}) => {
    if (index < 0 || index >= rows.length) return;
    setSelected({ id: rows[index].id, index });
    if (focus) focusSelected.current = true;
  };

  const act = async (suggestion: Suggestion, action: 'accept' | 'dismiss', { focus = false } = {}) => {
    if (acting.current.has(suggestion.id)) return;
    acting.current.add(suggestion.id);
    const done = await decide(suggestion, action);
    acting.current.delete(suggestion.id);
    const latest = queue.data;
    if (done && latest) {
      // It leaves at once; the live reload that follows confirms it.
      queue.set({ ...latest, data: latest.data.filter((row) => row.id !== suggestion.id), pagination: { ...latest.pagination, total: latest.pagination.total - 1 } });
      if (focus) focusSelected.current = true;
    } else {
      void queue.reload();
    }
  };

  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keys.current = (event) => {
    if (!isShortcutKey(event) || current === -1) return;
    const row = rows[current];
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === 'j') select(current + 1, { focus: true });
    else if (key === 'k') select(current - 1, { focus: true });
    else if (key === 'a') void act(row, 'accept', { focus: true });
    else if (key === 'd') void act(row, 'dismiss', { focus: true });
    // On a focused link or button, Enter is theirs.
    else if (key === 'Enter' && !(event.target as Element).closest('a, button')) navigate(`/inbox/${row.conversation_id}`);
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  // In the render that moved the selection, so the next key press finds the focus there.
  useLayoutEffect(() => {
    if (!focusSelected.current) return;
    focusSelected.current = false;
    const id = rows[current]?.id;
    if (id) document.querySelector<HTMLElement>(`[data-suggestion-id="${id}"] .triage-row-link`)?.focus();
    else document.getElementById('main')?.focus();
  });

  const setFilter = (changes: Record<string, string | null>) => navigate(withQuery('/triage', query, { ...changes, offset: null }));
  const filtered = filters.product_id !== '' || filters.kind !== '';
  return (
    <div class="page">
      <PageHeader
        title="Triage"
        description="What triage suggests doing with each new conversation: link it to the open issue it repeats, or create an issue from its draft. Oldest first."
        actions={
          <div class="filters-inline" role="group" aria-label="Filters">
            {products.length > 1 && (
              <Select compact label="Product" value={filters.product_id} options={[['', 'All products'], ...products.map((p): [string, string] => [p.id, p.name])]}
                onChange={(product) => setFilter({ product })} />
            )}
            <Select compact label="Kind" value={filters.kind} options={[['', 'Any kind'], ...entries(SUGGESTION_KINDS)]} onChange={(kind) => setFilter({ kind })} />
          </div>
        }
      />
      <p class="keyboard-legend" id="triage-keys">
        <kbd>J</kbd> / <kbd>K</kbd> next / previous · <kbd>A</kbd> accept · <kbd>D</kbd> dismiss · <kbd>Enter</kbd> open the conversation
      </p>
      {queue.error ? <ErrorState error={queue.error} retry={queue.reload} /> : null}
      {!queue.data ? (queue.error ? null : <Loading label="Loading suggestions…" />) : rows.length === 0 ? (
        <EmptyState title="Nothing to triage">
          {filtered ? 'No open suggestion matches these filters.' : 'New conversations are matched against their product\'s open issues a few seconds after the customer writes; what triage suggests appears here.'}
        </EmptyState>
      ) : (
        <ul class="plain-list card triage-list" aria-label="Open suggestions">
          {rows.map((suggestion, index) => (
            <TriageRow
              key={suggestion.id}
              suggestion={suggestion}
              conversationTitle={queue.data!.titles.get(suggestion.conversation_id) ?? 'Conversation'}
              selected={index === current}
              select={() => select(index)}
              act={(action) => void act(suggestion, action)}
            />
          ))}
        </ul>
      )}
      {queue.data && <Pager label="Suggestion pages" pagination={queue.data.pagination} onPage={(offset) => navigate(withQuery('/triage', query, { offset: String(offset) }))} />}
    </div>
  );
}
