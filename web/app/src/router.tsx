// A small router over the History API: paths under /app, query strings as filters, links that
// navigate without reloading. Enough for a handful of screens; nothing to download.
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/app';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** Goes to `to` (a path under /app, e.g. `/inbox/123?status=open`). */
export function navigate(to: string, { replace = false } = {}): void {
  const url = `${BASE}${to}`;
  if (url === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', url);
  listeners.forEach((listener) => listener());
}

export interface Location {
  /** The path under /app, starting with `/` (`/` for /app itself). */
  path: string;
  query: URLSearchParams;
}

function current(): Location {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return { path: path === '' ? '/' : path.replace(/\/+$/, '') || '/', query: new URLSearchParams(location.search) };
}

export function useLocation(): Location {
  const [state, setState] = useState(current);
  useEffect(() => {
    const update = () => setState(current());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return state;
}

/** The params of `pattern` (`/issues/:id`) in `path`, or null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

/** `path` with `changes` applied to its query string (null or '' removes a key). */
export function withQuery(path: string, query: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  }
  const search = next.toString();
  return search ? `${path}?${search}` : path;
}

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'role'> & { href: string; children?: ComponentChildren };

/** An `<a>` to a path under /app that navigates in place (modified clicks open a tab as usual). */
export function Link({ href, onClick, ...props }: AnchorProps) {
  return (
    <a
      {...props}
      href={`${BASE}${href}`}
      onClick={(event) => {
        if (onClick) (onClick as (e: MouseEvent) => void)(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    />
  );
}
