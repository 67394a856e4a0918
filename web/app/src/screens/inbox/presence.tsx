// Collision (docs/automation.md): who else is in the open conversation, and a warning before a
// reply that would cross another's. The page says it is viewing when it opens, again every 10 s
// while the tab is visible, that it is typing (at most every 3 s) while the reply box is being
// written in, viewing again 5 s after the last keystroke, and gone when it closes. Others'
// presences come on the team stream and are forgotten at their `expires_at` (30 s unless refreshed).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api/client.js';
import { useLiveEvents } from '../../api/live.js';

type Presence = Schemas['Presence'];
type State = Presence['state'];

const REFRESH_MS = 10_000;
const TYPING_EVERY_MS = 3_000;
const TYPING_IDLE_MS = 5_000;

/** One at a time, in order, so a later state is never overtaken by an earlier one. */
let sending: Promise<unknown> = Promise.resolve();

/** Fire and forget: a presence that does not arrive only expires sooner. */
function announce(conversationId: string, state: State, keepalive = false): void {
  const post = () => api.POST('/api/v1/conversations/{id}/presence', { params: { path: { id: conversationId } }, body: { state }, keepalive }).catch(() => {});
  // Leaving the page cannot wait for the queue: the keepalive request goes at once.
  if (keepalive) void post();
  else sending = sending.then(post);
}

/** The other members' presences in the conversation, and `typing` for the reply box to call on each keystroke. */
export function useConversationPresence(conversationId: string, myId: string | null) {
  const [others, setOthers] = useState<Presence[]>([]);
  const typingSentAt = useRef(0);
  /** What the refresh repeats: typing until the box has been idle a while. */
  const current = useRef<'viewing' | 'typing'>('viewing');
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    setOthers([]);
    current.current = 'viewing';
    const visible = () => document.visibilityState === 'visible';
    const refresh = () => visible() && announce(conversationId, current.current);
    refresh();
    const interval = setInterval(refresh, REFRESH_MS);
    const onVisibility = () => announce(conversationId, visible() ? current.current : 'gone');
    const onLeave = () => announce(conversationId, 'gone', true);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onLeave);
    return () => {
      clearInterval(interval);
      clearTimeout(idleTimer.current);
      typingSentAt.current = 0;
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onLeave);
      announce(conversationId, 'gone');
    };
  }, [conversationId]);

  // Forget each presence at its expiry: one timer, for the soonest.
  useEffect(() => {
    if (others.length === 0) return;
    const soonest = Math.min(...others.map((presence) => Date.parse(presence.expires_at)));
    const timer = setTimeout(() => setOthers((all) => all.filter((presence) => Date.parse(presence.expires_at) > Date.now())), Math.max(0, soonest - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [others]);

  useLiveEvents((event) => {
    if (event.type !== 'presence') return;
    const presence = event.data as unknown as Presence;
    if (presence.conversation_id !== conversationId || presence.member.id === myId) return;
    setOthers((all) => [
      ...all.filter((other) => other.member.id !== presence.member.id),
      ...(presence.state === 'gone' ? [] : [presence]),
    ]);
  }, () => {});

  const typing = () => {
    clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(() => {
      typingSentAt.current = 0;
      current.current = 'viewing';
      announce(conversationId, 'viewing');
    }, TYPING_IDLE_MS);
    if (Date.now() - typingSentAt.current < TYPING_EVERY_MS) return;
    typingSentAt.current = Date.now();
    current.current = 'typing';
    announce(conversationId, 'typing');
  };

  return { others, typing };
}

const nameOf = (presence: Presence) => presence.member.display_name ?? 'A teammate';

const listOf = (names: string[]) => (names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

const sentence = (names: string[], verb: string): string | null =>
  names.length === 0 ? null : `${listOf(names)} ${names.length === 1 ? 'is' : 'are'} ${verb}`;

/** "Ana is typing…", "Ben is viewing": a polite live region, empty when nobody else is here. */
export function PresenceNote({ others }: { others: Presence[] }) {
  const typing = sentence(others.filter((p) => p.state === 'typing').map(nameOf), 'typing…');
  const viewing = sentence(others.filter((p) => p.state === 'viewing').map(nameOf), 'viewing');
  return (
    <p class="presence-note muted small" role="status" aria-live="polite">
      {[typing, viewing].filter(Boolean).join(' · ')}
    </p>
  );
}

/**
 * The replies other people sent since the page opened (or since this member last sent one): the
 * reply box asks before sending over them.
 */
export function useReplyCollision(conversationId: string, messages: Schemas['Message'][] | undefined, myId: string | null) {
  const seen = useRef<{ conversationId: string; ids: Set<string> } | null>(null);
  if (messages && seen.current?.conversationId !== conversationId) seen.current = { conversationId, ids: new Set(messages.map((m) => m.id)) };

  /** Why to wait before sending, or null. */
  const warning = (): string | null => {
    const known = seen.current?.ids;
    const crossing = (messages ?? []).filter((m) => m.sender_type === 'agent' && !m.internal && m.sender_id !== myId && known && !known.has(m.id));
    if (crossing.length === 0) return null;
    const names = [...new Set(crossing.map((m) => m.sender_name ?? 'A teammate'))];
    return `${listOf(names)} replied after you opened this conversation.`;
  };
  /** Everything shown now counts as read (after this member's own reply). */
  const acknowledge = () => {
    if (messages) seen.current = { conversationId, ids: new Set(messages.map((m) => m.id)) };
  };
  return { warning, acknowledge };
}
