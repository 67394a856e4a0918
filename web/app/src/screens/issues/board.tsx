// The issue board: a column per status, each loaded in parallel with its own "Show more". Cards
// move by drag and drop or from the keyboard (Alt+← / Alt+→ on a focused card); the move is shown
// at once and undone if the server refuses it. Each issue's moves reach the server one at a time,
// in order. /issues/{id} opens an issue over the board.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, describeError, ok } from '../../api/client.js';
import { useLiveEvents } from '../../api/live.js';
import { match, navigate, useLocation, withQuery } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, Checkbox, Select } from '../../ui/form.js';
import { ISSUE_STATUSES, type IssueStatus } from '../../ui/labels.js';
import { ErrorState, PageHeader } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { BoardColumn } from './board-column.js';
import { CLOSED_STATUSES, WORKING_STATUSES, loadColumn, type ColumnState, type IssueItem } from './columns.js';
import { IssueDetail } from './issue-detail.js';
import { NewIssueDialog } from './new-issue.js';

type Columns = Partial<Record<IssueStatus, ColumnState>>;

export function Board({ path }: { path: string }) {
  const { query } = useLocation();
  const { products } = useSession();
  const openId = match('/issues/:id', path)?.id ?? null;
  const productId = query.get('product') ?? '';
  const showClosed = query.get('closed') === '1';
  const statuses = showClosed ? [...WORKING_STATUSES, ...CLOSED_STATUSES] : WORKING_STATUSES;
  const [columns, setColumns] = useState<Columns>({});
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const focusAfterMove = useRef<string | null>(null);

  const filters = { productId, statuses, key: `${productId}|${statuses.join()}` };
  const shown = useRef(filters);
  shown.current = filters;
  /** Issues with moves on their way to the server: the column each was moved to last. */
  const moving = useRef(new Map<string, IssueStatus>());
  /** A change arrived while moves were on their way: reload once they are all made. */
  const reloadWhenSettled = useRef(false);
  /** Moves made so far: a load asked before a move answers with the card where it was. */
  const movesMade = useRef(0);

  // One reload for the board's life, always for the filters shown now: a timer set by a live event
  // or a move still on its way holds an older render's reload, which would otherwise fill this
  // board with the previous product's columns. A load that finishes after the filters changed is
  // dropped; one asked before a move is made again once the moves are made (its answer would put
  // the card back where it was).
  const reload = useCallback(async (): Promise<void> => {
    const { productId, statuses, key } = shown.current;
    const movesBefore = movesMade.current;
    try {
      const loaded = await Promise.all(statuses.map((status) => loadColumn(status, productId)));
      if (shown.current.key !== key) return;
      if (movesMade.current !== movesBefore) {
        if (moving.current.size > 0) reloadWhenSettled.current = true;
        else void reload();
        return;
      }
      setColumns((current) => ({ ...current, ...Object.fromEntries(statuses.map((status, i) => [status, loaded[i]])) }));
      setError(null);
    } catch (failure) {
      if (shown.current.key === key) setError(failure);
    }
  }, []);
  useEffect(() => {
    setColumns({});
    void reload();
  }, [filters.key]);

  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  const reloadSoon = () => {
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      // A reload now would show a card where the server has it between two of its moves.
      if (moving.current.size > 0) reloadWhenSettled.current = true;
      else void reload();
    }, 300);
  };
  useLiveEvents((event) => {
    if (event.type.startsWith('issue.')) reloadSoon();
  }, reloadSoon);

  const showMore = async (status: IssueStatus) => {
    const column = columns[status];
    if (!column) return;
    const next = await loadColumn(status, productId, column.items.length);
    setColumns((current) => ({ ...current, [status]: { items: [...column.items, ...next.items], total: next.total } }));
  };

  /**
   * Sends the issue's latest move until the server has it, one PATCH at a time: moves made in quick
   * succession (Alt+→ three times) could otherwise reach it out of order and leave the issue in a
   * column it only passed through; moves made while one is on its way collapse into the latest.
   */
  const sendMoves = async (issue: IssueItem) => {
    let confirmed = issue.status;
    for (let to = moving.current.get(issue.id)!; to !== confirmed; to = moving.current.get(issue.id)!) {
      try {
        await ok(api.PATCH('/api/v1/issues/{id}', { params: { path: { id: issue.id } }, body: { status: to } }));
        confirmed = to;
      } catch (failure) {
        announce(`${issue.shortcode} could not be moved: ${describeError(failure)}`, 'error');
        reloadWhenSettled.current = true;
        break;
      }
    }
    if (confirmed !== issue.status) announce(`${issue.shortcode} moved to ${ISSUE_STATUSES[confirmed]}`);
    moving.current.delete(issue.id);
    if (moving.current.size === 0 && reloadWhenSettled.current) {
      reloadWhenSettled.current = false;
      void reload();
    }
  };

  const move = (issue: IssueItem, to: IssueStatus, { focus = false } = {}) => {
    if (issue.status === to) return;
    // Shown at once; the server's answers (or a reload after a refusal) settle it.
    setColumns((current) => moveLocally(current, issue, to));
    movesMade.current += 1;
    if (focus) focusAfterMove.current = issue.id;
    const sending = moving.current.has(issue.id);
    moving.current.set(issue.id, to);
    if (!sending) void sendMoves(issue);
  };

  // In the same task as the render that moved the card: a key pressed right after it finds the focus there.
  useLayoutEffect(() => {
    const id = focusAfterMove.current;
    if (!id) return;
    focusAfterMove.current = null;
    document.querySelector<HTMLElement>(`[data-issue-id="${id}"] a`)?.focus();
  });

  const moveBy = (issue: IssueItem, step: number) => {
    const index = statuses.indexOf(issue.status);
    const to = statuses[index + step];
    if (index !== -1 && to) move(issue, to, { focus: true });
  };

  const boardHref = withQuery('/issues', query, {});
  return (
    <div class="board-page">
      <PageHeader
        title="Issues"
        description={<span class="keyboard-hint" id="board-keys">Drag a card, or focus it and press Alt+← / Alt+→ to move it between columns.</span>}
        actions={
          <>
            {products.length > 1 && (
              <Select compact label="Product" value={productId} options={[['', 'All products'], ...products.map((p): [string, string] => [p.id, p.name])]}
                onChange={(product) => navigate(withQuery('/issues', query, { product }))} />
            )}
            <Checkbox label="Show released and dismissed" checked={showClosed} onChange={(on) => navigate(withQuery('/issues', query, { closed: on ? '1' : null }))} />
            <Button variant="primary" onClick={() => setCreating(true)} disabled={products.length === 0}>New issue</Button>
          </>
        }
      />
      {error ? <ErrorState error={error} retry={() => void reload()} /> : null}
      <div class="board">
        {statuses.map((status) => (
          <BoardColumn key={status} status={status} column={columns[status]} hrefOf={(issue) => withQuery(`/issues/${issue.shortcode}`, query, {})}
            onDrop={(issue) => move(issue, status)} onKeyMove={moveBy} onShowMore={() => void showMore(status)} findIssue={(id) => findIssue(columns, id)} />
        ))}
      </div>
      {openId && <IssueDetail id={openId} close={() => navigate(boardHref)} changed={() => void reload()} />}
      {creating && <NewIssueDialog defaultProductId={productId} close={() => setCreating(false)} created={(shortcode) => { setCreating(false); void reload(); navigate(withQuery(`/issues/${shortcode}`, query, {})); }} />}
    </div>
  );
}

function findIssue(columns: Columns, id: string): IssueItem | undefined {
  for (const column of Object.values(columns)) {
    const found = column?.items.find((issue) => issue.id === id);
    if (found) return found;
  }
  return undefined;
}

function moveLocally(columns: Columns, issue: IssueItem, to: IssueStatus): Columns {
  const next: Columns = { ...columns };
  const source = columns[issue.status];
  if (source) next[issue.status] = { items: source.items.filter((i) => i.id !== issue.id), total: source.total - 1 };
  const target = columns[to];
  if (target) next[to] = { items: [{ ...issue, status: to }, ...target.items], total: target.total + 1 };
  return next;
}
