// Search everything (`/` anywhere, or the sidebar's button): issues, conversations (their messages
// and notes too) and contacts, best first, grouped by type in the order their best result ranks.
// The arrow keys move through the results, Enter opens one, Escape closes.
import { useEffect, useId, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { Dialog } from '../../ui/dialog.js';
import { CONVERSATION_STATUSES } from '../../ui/labels.js';
import { ErrorState, Loading } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';

type Result = Schemas['SearchResult'];
/** The records the app has a screen for (help center articles have none yet, so they are not asked for). */
const SEARCHED = ['issue', 'conversation', 'contact'] as const;
type ResultType = (typeof SEARCHED)[number];

const TYPE_HEADINGS: Record<ResultType, string> = { issue: 'Issues', conversation: 'Conversations', contact: 'Contacts' };
const LIMIT = 30;
const DEBOUNCE_MS = 200;

/** Where a result leads in the app. */
export function hrefOf(result: Result): string {
  if (result.type === 'issue') return `/issues/${result.issue?.shortcode ?? result.id}`;
  if (result.type === 'conversation') return `/inbox/${result.id}`;
  return `/contacts/${result.id}`;
}

/** The results grouped by type, each group in rank order, groups ordered by their best result. */
function grouped(results: Result[]): [ResultType, Result[]][] {
  const groups = new Map<ResultType, Result[]>();
  for (const result of results) {
    const type = result.type as ResultType;
    groups.set(type, [...(groups.get(type) ?? []), result]);
  }
  return [...groups];
}

/** What tells two conversations with the same words apart: who wrote, where it stands, which product. */
function ConversationFacts({ conversation }: { conversation: Schemas['Conversation'] }) {
  const session = useSession();
  const who = conversation.contact?.name ?? conversation.contact?.email ?? 'Anonymous visitor';
  return (
    <span class="search-result-facts muted">
      {who} · {CONVERSATION_STATUSES[conversation.status]} · {session.productName(conversation.product_id)}
    </span>
  );
}

export function SearchDialog({ close }: { close: () => void }) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => { setQ(typed.trim()); setActive(0); }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const results = useResource(
    () => (q ? ok(api.GET('/api/v1/search', { params: { query: { q, types: SEARCHED.join(','), limit: LIMIT } } })).then((answer) => answer.data) : Promise.resolve([])),
    [q],
  );
  const groups = grouped(results.data ?? []);
  const flat = groups.flatMap(([, items]) => items);
  const current = Math.min(active, flat.length - 1);
  const optionId = (index: number) => `${listId}-${index}`;
  const open = (result: Result) => {
    close();
    navigate(hrefOf(result));
  };

  return (
    <Dialog title="Search" close={close} wide>
      <div class="search-box">
        <label for={`${listId}-input`} class="visually-hidden">Search issues, conversations and contacts</label>
        <input
          id={`${listId}-input`}
          class="input"
          type="search"
          role="combobox"
          list={undefined}
          aria-expanded={flat.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={flat.length > 0 ? optionId(current) : undefined}
          placeholder="Search issues, conversations and contacts"
          autocomplete="off"
          value={typed}
          onInput={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') setActive(Math.min(current + 1, flat.length - 1));
            else if (event.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
            else if (event.key === 'Enter' && flat[current]) open(flat[current]);
            // A search field's own Escape only clears it: here Escape closes, as in every dialog.
            else if (event.key === 'Escape') close();
            else return;
            event.preventDefault();
          }}
        />
      </div>
      {results.error ? <ErrorState error={results.error} retry={results.reload} /> : null}
      {q && results.loading && !results.data?.length ? <Loading label="Searching…" /> : null}
      {q && results.data && !results.loading && flat.length === 0 ? <p class="muted search-empty">Nothing matches “{q}”.</p> : null}
      {flat.length > 0 && (
        <div id={listId} role="listbox" aria-label="Results" class="search-results">
          {groups.map(([type, items]) => (
            <div key={type} role="group" aria-labelledby={`${listId}-${type}`}>
              {/* Inside a listbox only options and groups may be: the group's name is a presentational label. */}
              <div id={`${listId}-${type}`} role="presentation" class="small-heading">{TYPE_HEADINGS[type]}</div>
              {items.map((result) => {
                const index = flat.indexOf(result);
                return (
                  <div key={`${type}-${result.id}`} id={optionId(index)} role="option" aria-selected={index === current}
                    class="search-result" onClick={() => open(result)} onMouseEnter={() => setActive(index)}>
                    <span class="search-result-title">
                      {result.type === 'issue' && result.issue && <span class="shortcode">{result.issue.shortcode}</span>} {result.title}
                    </span>
                    {result.type === 'conversation' && result.conversation && <ConversationFacts conversation={result.conversation} />}
                    {result.snippet && <span class="search-result-snippet muted"><Highlighted text={result.snippet} highlights={result.highlights} /></span>}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
    </Dialog>
  );
}

/** A snippet with its matches marked; the ranges count Unicode code points, as the server's do. */
function Highlighted({ text, highlights }: { text: string; highlights: Result['highlights'] }) {
  const characters = Array.from(text);
  const parts = [];
  let at = 0;
  for (const { start, end } of highlights) {
    if (start > at) parts.push(characters.slice(at, start).join(''));
    parts.push(<mark key={start}>{characters.slice(start, end).join('')}</mark>);
    at = end;
  }
  parts.push(characters.slice(at).join(''));
  return <>{parts}</>;
}
