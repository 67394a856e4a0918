// `@` completion in the note box: typing `@` and the start of a member's name (or of any word of it)
// offers the matching members; the arrow keys move, Enter or Tab inserts `@Display Name `, Escape
// closes; a click picks too. Below the box, who the note will notify, worked out by the server's
// own rules (src/domain/notifications/mentions.ts: case ignored, the longest name wins), so what is
// shown is what the server does. Replies to customers mention nobody: the completion is for notes.
//
// It wraps the box's field rather than taking its props: the keys and input bubble up to it, and it
// sets the field's completion attributes (aria-activedescendant, aria-controls) itself.
import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { WORD, fold, mentionedMembers } from '../../../../../src/domain/notifications/mentions.js';
import { useSession } from '../../session.js';
import { Avatar } from '../../ui/badges.js';

type Member = ReturnType<typeof useSession>['members'][number];

/** Longer than this after the `@` is writing, not naming someone. */
const LONGEST_QUERY = 60;
const SHOWN = 8;

/** The `@` being typed before the caret, if any: it starts a word (after a letter it is an address), and what follows it up to the caret is on one line. */
function queryBefore(value: string, caret: number): { at: number; text: string } | null {
  const at = value.lastIndexOf('@', caret - 1);
  if (at === -1 || caret - at > LONGEST_QUERY || (at > 0 && WORD.test(value[at - 1]!))) return null;
  const text = value.slice(at + 1, caret);
  return text.includes('\n') ? null : { at, text };
}

/** Members whose name starts with `query`, then those with a later word starting with it; each group by name. */
function matching(members: Member[], query: string): Member[] {
  const wanted = fold(query);
  const ranked = members.flatMap((member) => {
    const name = fold(member.display_name?.trim() ?? '');
    if (!name) return [];
    if (name.startsWith(wanted)) return [{ member, rank: 0 }];
    return name.includes(` ${wanted}`) ? [{ member, rank: 1 }] : [];
  });
  ranked.sort((a, b) => a.rank - b.rank || a.member.display_name!.localeCompare(b.member.display_name!));
  return ranked.slice(0, SHOWN).map(({ member }) => member);
}

interface Props {
  /** In note mode; otherwise the field is left alone. */
  enabled: boolean;
  body: string;
  setBody: (body: string) => void;
  children: ComponentChildren;
}

export function MentionCompletion({ enabled, body, setBody, children }: Props) {
  const session = useSession();
  const anchor = useRef<HTMLDivElement>(null);
  const listId = useId();
  const [query, setQuery] = useState<{ at: number; text: string } | null>(null);
  const [active, setActive] = useState(0);
  /** The `@` whose completion Escape closed: it stays closed until another `@` is typed. */
  const dismissed = useRef<number | null>(null);
  const options = enabled && query ? matching(session.members, query.text) : [];
  const open = options.length > 0;
  const current = Math.min(active, options.length - 1);
  const optionId = (index: number) => `${listId}-${index}`;

  const field = () => anchor.current?.querySelector('textarea') ?? null;
  const follow = () => {
    const textarea = field();
    const next = enabled && textarea ? queryBefore(textarea.value, textarea.selectionStart) : null;
    if (next?.at !== dismissed.current) dismissed.current = null;
    setQuery(next && next.at !== dismissed.current ? next : null);
    if (next?.at !== query?.at || next?.text !== query?.text) setActive(0);
  };

  const pick = (member: Member) => {
    const textarea = field();
    // Re-read where the caret is: it may have moved since the list was drawn.
    const typed = textarea && queryBefore(textarea.value, textarea.selectionStart);
    if (!textarea || !typed) return setQuery(null);
    const rest = textarea.value.slice(textarea.selectionStart);
    const inserted = `@${member.display_name!.trim()}${rest.startsWith(' ') ? '' : ' '}`;
    const value = textarea.value.slice(0, typed.at) + inserted + rest;
    const caret = typed.at + inserted.length + (rest.startsWith(' ') ? 1 : 0);
    // The field is written first, so that the render with the new body finds it already so and the caret stays.
    textarea.value = value;
    textarea.setSelectionRange(caret, caret);
    setBody(value);
    setQuery(null);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!open || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowDown') setActive((current + 1) % options.length);
    else if (event.key === 'ArrowUp') setActive((current - 1 + options.length) % options.length);
    else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) pick(options[current]!);
    else if (event.key === 'Escape') {
      dismissed.current = query!.at;
      setQuery(null);
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };

  // The field names the list it drives and its active option; it is the box's own element, so set here.
  useLayoutEffect(() => {
    const textarea = field();
    if (!textarea) return;
    const set = (name: string, value: string | null) => (value === null ? textarea.removeAttribute(name) : textarea.setAttribute(name, value));
    set('aria-autocomplete', enabled ? 'list' : null);
    set('aria-controls', open ? listId : null);
    set('aria-activedescendant', open ? optionId(current) : null);
  });

  const me = session.me.member?.id;
  const notified = enabled ? mentionedMembers(body, session.members).filter((id) => id !== me).map((id) => session.memberName(id)) : [];
  return (
    <div class="mention-anchor" ref={anchor} onInput={follow} onKeyDown={onKeyDown} onClick={follow}
      onFocusOut={() => setQuery(null)}>
      {children}
      {open && (
        // Pressing an option must not take the focus from the field (which would close the list first).
        <ul id={listId} role="listbox" aria-label="Members to mention" class="mention-list" onMouseDown={(event) => event.preventDefault()}>
          {options.map((member, index) => (
            <li key={member.id} id={optionId(index)} role="option" aria-selected={index === current} class="mention-option"
              onClick={(event) => { event.stopPropagation(); pick(member); }} onMouseEnter={() => setActive(index)}>
              <Avatar name={member.display_name} small />
              <span class="mention-name">{member.display_name}</span>
              <span class="muted small capitalize">{member.role}</span>
            </li>
          ))}
        </ul>
      )}
      <p class="visually-hidden" role="status">
        {open ? `${options.length} ${options.length === 1 ? 'member matches' : 'members match'}: up and down arrows to choose, Enter to insert.` : ''}
      </p>
      {notified.length > 0 && <p class="mention-notified muted small">Notifies {listed(notified)}</p>}
    </div>
  );
}

const listed = (names: string[]) => new Intl.ListFormat('en', { type: 'conjunction' }).format(names);
