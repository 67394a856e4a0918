// The pieces every screen is made of: its header, its loading and error states, empty lists,
// and the pager of a list.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { describeError, type Schemas } from '../api/client.js';
import { Button } from './form.js';

/** Sets the tab's title while the screen is shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Loopdesk`;
  }, [title]);
}

export function PageHeader({ title, description, actions }: { title: string; description?: ComponentChildren; actions?: ComponentChildren }) {
  useTitle(title);
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p class="muted">{description}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <div class="loading" role="status"><span class="spinner" aria-hidden="true" />{label}</div>;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="alert alert-error alert-row" role="alert">
      <span>{describeError(error)}</span>
      {retry && <Button small onClick={retry}>Try again</Button>}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <p class="muted">{children}</p>}
    </div>
  );
}

/** "1–50 of 120" with Previous and Next; `onPage` gets the new offset. */
export function Pager({ pagination, onPage, label }: { pagination: Schemas['Pagination']; onPage: (offset: number) => void; label: string }) {
  const { total, limit, offset } = pagination;
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <nav class="pager" aria-label={label}>
      <span class="muted">{total === 0 ? '0' : `${offset + 1}–${last}`} of {total}</span>
      <Button small disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>Previous</Button>
      <Button small disabled={last >= total} onClick={() => onPage(offset + limit)}>Next</Button>
    </nav>
  );
}
