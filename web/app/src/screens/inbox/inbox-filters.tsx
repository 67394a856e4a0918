// The inbox list's filters and sort, folded into one menu so the list keeps its height: a button
// that says how many differ from the defaults, and a panel of selects under it (closed by Escape,
// by a click elsewhere, or by the button again). Every choice goes to the query string at once.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { useSession } from '../../session.js';
import { Select } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { CONVERSATION_TYPES, PRIORITIES, entries } from '../../ui/labels.js';

export const INBOX_DEFAULT_STATUS = 'open,in_progress';

const SORTS: [string, string][] = [['', 'Newest first'], ['waiting', 'Waiting longest'], ['due', 'Due first']];
const SLA_FILTERS: [string, string][] = [['', 'Any SLA'], ['running', 'SLA running'], ['breached', 'SLA breached']];

const STATUS_FILTERS: [string, string][] = [
  [INBOX_DEFAULT_STATUS, 'Open and in progress'], ['open', 'Open'], ['in_progress', 'In progress'],
  ['resolved', 'Resolved'], ['dismissed', 'Dismissed'], ['all', 'All'],
];

export interface ListFilters { status: string; priority: string; type: string; product_id: string; sla: string; sort: string }

export function InboxFilters({ filters, setFilter }: { filters: ListFilters; setFilter: (changes: Record<string, string | null>) => void }) {
  const { products } = useSession();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const changed = [filters.status !== INBOX_DEFAULT_STATUS, filters.priority, filters.type, filters.product_id, filters.sla, filters.sort].filter(Boolean).length;

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => { if (!menu.current?.contains(event.target as Node)) setOpen(false); };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      menu.current?.querySelector<HTMLButtonElement>('button')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <div class="filter-menu" ref={menu}>
      <button type="button" class="button button-secondary button-small" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <Icon name="filter" size={16} />Filters{changed > 0 && <span class="filter-count"><span class="visually-hidden">, </span>{changed}<span class="visually-hidden"> set</span></span>}
      </button>
      <div id={panelId} class="filter-panel" role="group" aria-label="Filters" hidden={!open}>
        <Select label="Show" value={filters.status} options={STATUS_FILTERS} onChange={(status) => setFilter({ status: status === INBOX_DEFAULT_STATUS ? null : status })} />
        <Select label="Priority" value={filters.priority} options={[['', 'Any priority'], ...entries(PRIORITIES)]} onChange={(priority) => setFilter({ priority })} />
        <Select label="Type" value={filters.type} options={[['', 'Any type'], ...entries(CONVERSATION_TYPES)]} onChange={(type) => setFilter({ type })} />
        {products.length > 1 && (
          <Select label="Product" value={filters.product_id} options={[['', 'All products'], ...products.map((p): [string, string] => [p.id, p.name])]}
            onChange={(product) => setFilter({ product })} />
        )}
        <Select label="SLA" value={filters.sla} options={SLA_FILTERS} onChange={(sla) => setFilter({ sla })} />
        <Select label="Sort" value={filters.sort} options={SORTS} onChange={(sort) => setFilter({ sort })} />
        {changed > 0 && (
          <button type="button" class="button button-ghost button-small" onClick={() => setFilter({ status: null, priority: null, type: null, product: null, sla: null, sort: null })}>
            Reset filters
          </button>
        )}
      </div>
    </div>
  );
}
