// The bell in the shell: how many of the member's notifications are unread, kept live by the team
// stream (`notification.created` comes only to the member it is for), and the panel it opens: the
// notifications newest first (the unread ones marked), a click opening the conversation and marking
// it read, "Mark all read", and the switch for desktop notifications. The panel is a non-modal
// popup: the arrow keys move through the list, Escape closes it and the focus goes back to the bell.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../api/client.js';
import { useLiveEvents } from '../api/live.js';
import { Link, navigate } from '../router.js';
import { type DesktopState, desktopState, headline, notifyDesktop, setDesktopNotifications } from './desktop-notifications.js';
import { Icon } from './icons.js';
import { ago, fullDate } from './labels.js';
import { announce } from './toast.js';

type Notification = Schemas['Notification'];

const PAGE_SIZE = 20;

const loadUnreadCount = async () =>
  (await ok(api.GET('/api/v1/notifications', { params: { query: { unread: true, limit: 1 } } }))).pagination.total;
const loadPage = (offset: number) => ok(api.GET('/api/v1/notifications', { params: { query: { limit: PAGE_SIZE, offset } } }));
const markRead = (body: { ids: string[] } | { all: true }) => ok(api.POST('/api/v1/notifications/read', { body }));

export function NotificationBell({ memberId }: { memberId: string }) {
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<{ items: Notification[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const panelId = useId();

  /** The latest count asked: an answer to an earlier ask (slower, or from before an event) is dropped. */
  const countAsked = useRef(0);
  const refreshCount = () => {
    const asked = ++countAsked.current;
    return loadUnreadCount().then((count) => asked === countAsked.current && setUnread(count), () => undefined);
  };
  const loadList = async () => {
    try {
      const page = await loadPage(0);
      setList({ items: page.data, total: page.pagination.total });
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  /** Marks it read (opening it is reading it); the caller opens the conversation. */
  const opened = (notification: Notification) => {
    if (!notification.read_at) void read([notification.id]);
  };
  const showMore = async () => {
    if (!list) return;
    try {
      const page = await loadPage(list.items.length);
      const shown = new Set(list.items.map((item) => item.id));
      setList({ items: [...list.items, ...page.data.filter((item) => !shown.has(item.id))], total: page.pagination.total });
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  useEffect(() => {
    void refreshCount();
    // Read in another tab or window: the count catches up when this one is looked at again.
    const visible = () => document.visibilityState === 'visible' && void refreshCount();
    document.addEventListener('visibilitychange', visible);
    return () => document.removeEventListener('visibilitychange', visible);
  }, []);
  useLiveEvents((event) => {
    if (event.type !== 'notification.created') return;
    const notification = event.data as unknown as Notification;
    // Counted at once, then asked again: a count fetched while the notification was being made may
    // already hold it, and adding one to that counted it twice.
    setUnread((count) => count + 1);
    void refreshCount();
    setList((current) => current && !current.items.some((item) => item.id === notification.id)
      ? { items: [notification, ...current.items], total: current.total + 1 } : current);
    notifyDesktop(memberId, notification, () => {
      opened(notification);
      navigate(`/inbox/${notification.conversation.id}`);
    });
  }, () => {
    void refreshCount();
    if (open) void loadList();
  });

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) bell.current?.focus();
  };
  // A click anywhere else closes the panel, as any popup.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => !wrapper.current?.contains(event.target as Node) && close(false);
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  async function read(ids: string[] | 'all') {
    try {
      await markRead(ids === 'all' ? { all: true } : { ids });
      const now = new Date().toISOString();
      setList((current) => current && {
        ...current, items: current.items.map((item) => (ids === 'all' || ids.includes(item.id)) && !item.read_at ? { ...item, read_at: now } : item),
      });
      await refreshCount();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  }

  const toggle = () => {
    if (open) return close(true);
    setOpen(true);
    setList(null);
    void loadList();
  };
  const label = `Notifications, ${unread} unread`;
  return (
    <div class="bell" ref={wrapper} onFocusOut={(event) => {
      const to = event.relatedTarget as Node | null;
      if (open && to && !wrapper.current?.contains(to)) close(false);
    }}>
      <button ref={bell} type="button" class="icon-button bell-button" aria-label={label} title={label}
        aria-expanded={open} aria-controls={open ? panelId : undefined} aria-haspopup="dialog" onClick={toggle}>
        <Icon name="bell" />
        {unread > 0 && <span class="bell-count" aria-hidden="true">{unread > 99 ? '99+' : unread}</span>}
      </button>
      {open && (
        <NotificationPanel id={panelId} memberId={memberId} list={list} error={error} unread={unread} retry={() => void loadList()}
          close={close} opened={opened} markAllRead={() => read('all')} showMore={showMore} />
      )}
    </div>
  );
}

interface PanelProps {
  id: string;
  memberId: string;
  list: { items: Notification[]; total: number } | null;
  error: string | null;
  unread: number;
  retry: () => void;
  close: (returnFocus: boolean) => void;
  opened: (notification: Notification) => void;
  markAllRead: () => Promise<void>;
  showMore: () => Promise<void>;
}

function NotificationPanel({ id, memberId, list, error, unread, retry, close, opened, markAllRead, showMore }: PanelProps) {
  const panel = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const links = () => [...(panel.current?.querySelectorAll<HTMLElement>('.notification-link') ?? [])];
  useEffect(() => panel.current?.focus(), []);
  // Once the list is in, the focus goes to its first entry (unless it has already moved).
  useEffect(() => {
    if (list && document.activeElement === panel.current) links()[0]?.focus();
  }, [list !== null]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      return close(true);
    }
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next = { ArrowDown: at + 1, ArrowUp: at < 0 ? all.length - 1 : at - 1, Home: 0, End: all.length - 1 }[event.key];
    if (next === undefined || all.length === 0 || (at < 0 && (event.target as Element).closest('input, button'))) return;
    event.preventDefault();
    all[(next + all.length) % all.length]!.focus();
  };

  return (
    <div id={id} ref={panel} class="bell-panel" role="dialog" aria-labelledby={headingId} tabIndex={-1} onKeyDown={onKeyDown}>
      <div class="bell-panel-head">
        <h2 id={headingId}>Notifications</h2>
        {/* aria-disabled, not disabled: a button disabled under the focus drops it, and Escape would no longer reach the panel. */}
        <button type="button" class="button button-ghost button-small" aria-disabled={unread === 0} onClick={() => unread > 0 && void markAllRead()}>
          Mark all read
        </button>
      </div>
      {error ? (
        <div class="alert alert-error bell-panel-body" role="alert">{error} <button type="button" class="button button-small button-secondary" onClick={retry}>Try again</button></div>
      ) : !list ? (
        <p class="muted bell-panel-body">Loading…</p>
      ) : list.items.length === 0 ? (
        <p class="muted bell-panel-body">Nothing yet. You are told here when a conversation is assigned to you, when a customer writes in one of yours, and when a note mentions you.</p>
      ) : (
        <ul class="notification-list" aria-labelledby={headingId}>
          {list.items.map((notification) => (
            <li key={notification.id}>
              <Link href={`/inbox/${notification.conversation.id}`} class={`notification-link ${notification.read_at ? '' : 'notification-unread'}`}
                onClick={() => { close(true); opened(notification); }}>
                <span class="notification-headline">
                  {!notification.read_at && <span class="visually-hidden">Unread: </span>}{headline(notification)}
                </span>
                <span class="notification-title">{notification.conversation.title}</span>
                <time class="notification-time muted" dateTime={notification.created_at} title={fullDate(notification.created_at)}>{ago(notification.created_at)}</time>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {list && list.items.length < list.total && (
        <button type="button" class="button button-ghost button-small bell-more" onClick={() => void showMore()}>Show older</button>
      )}
      <DesktopSwitch memberId={memberId} />
    </div>
  );
}

const DESKTOP_HINTS: Record<DesktopState, string> = {
  unsupported: 'This browser cannot show desktop notifications here (they need https or localhost).',
  off: 'Shown while Loopdesk is in a background tab. Your browser asks first.',
  on: 'Shown while Loopdesk is in a background tab.',
  blocked: 'Your browser blocks notifications from this site: allow them in its site settings.',
};

function DesktopSwitch({ memberId }: { memberId: string }) {
  const [state, setState] = useState(() => desktopState(memberId));
  const id = useId();
  return (
    <div class="checkbox bell-desktop">
      <input id={id} type="checkbox" checked={state === 'on' || state === 'blocked'} disabled={state === 'unsupported'} aria-describedby={`${id}-hint`}
        onChange={(event) => void setDesktopNotifications(memberId, (event.currentTarget as HTMLInputElement).checked).then(setState)} />
      <label for={id}>Desktop notifications</label>
      <p class="field-hint" id={`${id}-hint`}>{DESKTOP_HINTS[state]}</p>
    </div>
  );
}
