// Desktop notifications (the browser's Notification API), only for a member who turned them on:
// the browser is asked for permission on that click and never otherwise, and the choice is kept in
// this browser (localStorage, per member). While the app's tab is hidden, a new notification shows
// one; its click brings the tab forward on the conversation.
import type { Schemas } from '../api/client.js';

type Notification = Schemas['Notification'];

export type DesktopState =
  /** This browser has no Notification API (or not here: it needs https or localhost). */
  | 'unsupported'
  /** The member has not turned them on in this browser. */
  | 'off'
  | 'on'
  /** Turned on, but the browser refuses them for this site (its site settings decide, not a page). */
  | 'blocked';

const supported = () => typeof window.Notification === 'function';
const storageKey = (memberId: string) => `loopdesk:desktop-notifications:${memberId}`;

function remembered(memberId: string): boolean {
  try {
    return localStorage.getItem(storageKey(memberId)) === 'on';
  } catch {
    return false;
  }
}

function remember(memberId: string, on: boolean): void {
  try {
    if (on) localStorage.setItem(storageKey(memberId), 'on');
    else localStorage.removeItem(storageKey(memberId));
  } catch {
    // Storage refused (a private window's quota): the choice lasts as long as the page.
  }
}

export function desktopState(memberId: string): DesktopState {
  if (!supported()) return 'unsupported';
  const permission = window.Notification.permission;
  // Never answered (or reset in the browser's settings): off, so that turning them on asks again.
  if (!remembered(memberId) || permission === 'default') return 'off';
  return permission === 'granted' ? 'on' : 'blocked';
}

/** Turns them on (asking the browser for permission when it has not been given) or off; resolves with the new state. */
export async function setDesktopNotifications(memberId: string, on: boolean): Promise<DesktopState> {
  remember(memberId, on);
  if (on && supported() && window.Notification.permission === 'default') await window.Notification.requestPermission();
  return desktopState(memberId);
}

/** What a notification says: who did what ("Linus Pauling mentioned you"). */
export function headline({ kind, actor }: Pick<Notification, 'kind' | 'actor'>): string {
  const name = actor?.name;
  if (kind === 'assigned') return `${name ?? 'Someone'} assigned you a conversation`;
  if (kind === 'mention') return `${name ?? 'Someone'} mentioned you`;
  return `${name ?? 'The customer'} wrote`;
}

/** Shows `notification` on the desktop when the member turned them on and the tab is hidden. */
export function notifyDesktop(memberId: string, notification: Notification, open: (notification: Notification) => void): void {
  if (document.visibilityState !== 'hidden' || desktopState(memberId) !== 'on') return;
  // The tag makes the browser show one per notification, however many of the app's tabs are open.
  const shown = new window.Notification(headline(notification), { body: notification.conversation.title, tag: notification.id });
  shown.onclick = () => {
    window.focus();
    open(notification);
    shown.close();
  };
}
