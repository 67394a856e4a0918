// A contact's panel: who they are, their other conversations, and what the law lets them ask for:
// an export of everything about them (downloaded as JSON), and erasure — for owners and admins,
// behind typing the contact's email (or "erase" when there is none), since it cannot be undone.
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { StatusBadge, VerifiedBadge } from '../../ui/badges.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { ago, fullDate, shortDate } from '../../ui/labels.js';
import { ErrorState, Loading } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

type ContactDetail = Schemas['ContactDetail'];

interface Props {
  contactId: string;
  /** The conversation the panel is shown beside: left out of "other conversations". */
  currentConversationId?: string;
  erased: () => void;
  /** Open at first (on the contact's own page); folded beside a conversation. */
  open?: boolean;
}

export function ContactPanel({ contactId, currentConversationId, erased, open }: Props) {
  const { canManageSettings } = useSession();
  const contact = useResource(() => ok(api.GET('/api/v1/contacts/{id}', { params: { path: { id: contactId } } })).then((answer) => answer.data), [contactId]);
  const [erasing, setErasing] = useState(false);
  const exporting = useAction();

  const download = () => exporting.run(async () => {
    const answer = await ok(api.GET('/api/v1/contacts/{id}/export', { params: { path: { id: contactId } } }));
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([JSON.stringify(answer, null, 2)], { type: 'application/json' }));
    link.download = `contact-${contactId}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
    announce('Export downloaded');
  });

  const data = contact.data;
  const others = data?.conversations.filter((conversation) => conversation.id !== currentConversationId) ?? [];
  return (
    <details class="contact-panel" open={open}>
      <summary>Contact{data ? `: ${data.name ?? data.email ?? 'Anonymous'}` : ''}</summary>
      {contact.error ? <ErrorState error={contact.error} retry={contact.reload} /> : !data ? <Loading label="Loading the contact…" /> : (
        <div class="stack contact-body">
          <dl class="contact-profile">
            <dt>Name</dt><dd>{data.name ?? '—'}{data.verified && <VerifiedBadge />}</dd>
            <dt>Email</dt><dd>{data.email ? <a href={`mailto:${data.email}`}>{data.email}</a> : '—'}</dd>
            <dt>Since</dt><dd><time dateTime={data.created_at} title={fullDate(data.created_at)}>{shortDate(data.created_at)}</time></dd>
            <dt>Last seen</dt><dd>{data.last_seen_at ? <time dateTime={data.last_seen_at} title={fullDate(data.last_seen_at)}>{ago(data.last_seen_at)}</time> : 'Never'}</dd>
            <dt>Conversations</dt><dd>{data.conversations_count}</dd>
          </dl>
          {others.length > 0 && (
            <>
              <h3 class="small-heading">{currentConversationId ? 'Other conversations' : 'Conversations'}</h3>
              <ul class="contact-conversations">
                {others.map((conversation) => (
                  <li key={conversation.id}>
                    <Link href={`/inbox/${conversation.id}`}>{conversation.title}</Link> <StatusBadge status={conversation.status} />{' '}
                    <span class="muted small">started {ago(conversation.created_at)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <FormError message={exporting.message} />
          <div class="row">
            <Button small busy={exporting.busy} onClick={() => void download()}>Export data</Button>
            {canManageSettings && <Button small variant="danger" onClick={() => setErasing(true)}>Erase contact…</Button>}
          </div>
        </div>
      )}
      {erasing && data && <EraseDialog contact={data} close={() => setErasing(false)} erased={erased} />}
    </details>
  );
}

function EraseDialog({ contact, close, erased }: { contact: ContactDetail; close: () => void; erased: () => void }) {
  const expected = contact.email ?? 'erase';
  const [typed, setTyped] = useState('');
  const action = useAction();
  const confirmed = typed.trim().toLowerCase() === expected.toLowerCase();
  const submit = (event: Event) => {
    event.preventDefault();
    if (!confirmed) return;
    void action.run(async () => {
      await ok(api.DELETE('/api/v1/contacts/{id}', { params: { path: { id: contact.id } } }));
      announce('Contact erased');
      close();
      erased();
    });
  };
  return (
    <Dialog title="Erase this contact" close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <p>
          This removes {contact.name ?? contact.email ?? 'this contact'} for good: their profile, widget sessions and upvotes, and the text
          of their messages. Their conversations stay for the backlog, without their name or words. This cannot be undone.
        </p>
        <FormError message={action.message} />
        <TextField label={`Type ${expected} to confirm`} value={typed} autocomplete="off" onInput={(event) => setTyped(event.currentTarget.value)} />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="danger" busy={action.busy} disabled={!confirmed}>Erase contact</Button>
        </div>
      </form>
    </Dialog>
  );
}
