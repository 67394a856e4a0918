// The reply box: a reply to the customer (said to go out by email in an email conversation), or an
// internal note only the team sees (the box turns yellow and says so; `@` completes a teammate's
// name, who is then notified). Send (or Ctrl/⌘+Enter) posts as the signed-in member. A saved reply can be
// picked instead of typing: the server fills its placeholders (the contact's name, the agent's…)
// when it is sent, so the box shows the saved text as it is and sends it by its id. The help center's
// suggested articles sit above the reply, each added to it as a link. A reply that would cross
// another's (presence.tsx) waits for "Send anyway".
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Button, TextArea } from '../../ui/form.js';
import { announce } from '../../ui/toast.js';
import { MentionCompletion } from './mention-completion.js';
import { SavedReplyPicker } from './saved-reply-picker.js';
import { SuggestedArticles } from './suggested-articles.js';

type Mode = 'reply' | 'note';
type SavedReply = Schemas['SavedReply'];

interface Props {
  conversationId: string;
  sent: (message: Schemas['Message']) => void;
  /** The contact's address when replies to this conversation go out by email. */
  emailTo: string | null;
  /** Called on each keystroke in the box (presence.tsx announces typing). */
  typing?: () => void;
  /** Why a reply should be confirmed before it goes (someone else replied meanwhile), or null. */
  warnBeforeReply?: () => string | null;
}

export function ReplyBox({ conversationId, sent, emailTo, typing, warnBeforeReply }: Props) {
  const [mode, setMode] = useState<Mode>('reply');
  const [body, setBody] = useState('');
  const [saved, setSaved] = useState<SavedReply | null>(null);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const [crossing, setCrossing] = useState<string | null>(null);
  const sendAnyway = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (crossing) sendAnyway.current?.focus();
  }, [crossing]);
  const note = mode === 'note';

  /** Adds a suggested article's link at the end of the reply and puts the cursor after it, to write on. */
  const insertLink = (link: string) => {
    setBody((current) => (current.trim() === '' ? link : `${current.trimEnd()} ${link}`));
    requestAnimationFrame(() => {
      const area = form.current?.querySelector('textarea');
      area?.focus();
      area?.setSelectionRange(area.value.length, area.value.length);
    });
    announce('Link inserted into the reply');
  };
  const ready = note ? body.trim() !== '' : saved !== null || body.trim() !== '';

  const send = async (event?: Event, confirmed = false) => {
    event?.preventDefault();
    if (!ready || busy) return;
    const warning = note || confirmed ? null : (warnBeforeReply?.() ?? null);
    setCrossing(warning);
    if (warning) return;
    setBusy(true);
    setError(undefined);
    try {
      const params = { path: { id: conversationId } };
      const answer = note
        ? await ok(api.POST('/api/v1/conversations/{id}/notes', { params, body: { body } }))
        : await ok(api.POST('/api/v1/conversations/{id}/messages', { params, body: saved ? { saved_reply_id: saved.id } : { body } }));
      setBody('');
      setSaved(null);
      sent(answer.data);
      announce(note ? 'Note added' : 'Reply sent');
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form ref={form} class={`reply ${note ? 'reply-note' : ''}`} onSubmit={send}>
      <div class="reply-modes" role="radiogroup" aria-label="Write">
        {(['reply', 'note'] as const).map((value) => (
          <button key={value} type="button" role="radio" aria-checked={mode === value} class="reply-mode"
            onClick={() => { setMode(value); setError(undefined); }}>
            {value === 'reply' ? 'Reply' : 'Internal note'}
          </button>
        ))}
      </div>
      {/* Kept while a note or a saved reply is written, so switching back does not ask again. */}
      <div hidden={note || saved !== null}><SuggestedArticles conversationId={conversationId} insert={insertLink} /></div>
      {saved && !note ? (
        <div class="saved-reply-preview" aria-label="Saved reply to send">
          <p class="saved-reply-title">Saved reply: {saved.title}</p>
          <p class="saved-reply-body">{saved.body}</p>
          <p class="muted small">Placeholders such as {'{{contact.first_name}}'} are filled in when it is sent.</p>
          {error && <p class="field-error">{error}</p>}
          <Button small onClick={() => setSaved(null)}>Write instead</Button>
        </div>
      ) : (
        <MentionCompletion enabled={note} body={body} setBody={setBody}><TextArea
          label={note ? 'Internal note' : 'Reply'}
          hideLabel
          placeholder={note ? 'Write a note for the team — the customer never sees it' : 'Write a reply…'}
          rows={2}
          value={body}
          error={error}
          onInput={(event) => { setBody(event.currentTarget.value); typing?.(); }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event);
          }}
        /></MentionCompletion>
      )}
      {crossing && !note && (
        <div class="reply-crossing" role="alert">
          <p>{crossing} Read it before sending yours?</p>
          <span class="reply-buttons">
            <Button small onClick={() => setCrossing(null)}>Cancel</Button>
            {/* Focused as it appears, so the keyboard and screen reader land on the choice. */}
            <button type="button" class="button button-primary button-small" ref={sendAnyway} onClick={() => void send(undefined, true)}>
              Send anyway
            </button>
          </span>
        </div>
      )}
      <div class="reply-actions">
        <span class="muted small">
          {note ? 'Only the team sees notes · ' : emailTo ? `Your reply will be emailed to ${emailTo} · ` : ''}Ctrl+Enter to send
        </span>
        <span class="reply-buttons">
          {!note && <Button onClick={() => setPicking(true)}>Saved replies</Button>}
          <Button type="submit" variant="primary" busy={busy} disabled={!ready}>{note ? 'Add note' : 'Send'}</Button>
        </span>
      </div>
      {picking && <SavedReplyPicker close={() => setPicking(false)} pick={(reply) => { setSaved(reply); setPicking(false); }} />}
    </form>
  );
}
