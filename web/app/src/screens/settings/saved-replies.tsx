// Saved replies: answers the team sends often, picked from the reply box. Placeholders are filled
// when one is sent: {{contact.name}}, {{contact.first_name}}, {{agent.name}}, {{product.name}}.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, TextArea, TextField } from '../../ui/form.js';
import { ago } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, Pager } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

type SavedReply = Schemas['SavedReply'];

export function SavedReplies() {
  const [offset, setOffset] = useState(0);
  const list = useResource(() => ok(api.GET('/api/v1/saved-replies', { params: { query: { limit: 50, offset } } })), [offset]);
  // null: the dialog is closed; 'new': a new one; otherwise the one being edited.
  const [editing, setEditing] = useState<SavedReply | 'new' | null>(null);

  const remove = async (reply: SavedReply) => {
    if (!confirm(`Delete the saved reply "${reply.title}"?`)) return;
    try {
      await ok(api.DELETE('/api/v1/saved-replies/{id}', { params: { path: { id: reply.id } } }));
      announce('Saved reply deleted');
      await list.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  return (
    <section aria-labelledby="saved-replies-heading" class="stack">
      <div class="row">
        <h2 id="saved-replies-heading">Saved replies</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => setEditing('new')}>New saved reply</Button>
      </div>
      <p class="muted">The team picks these from the reply box. <code>{'{{contact.first_name}}'}</code>, <code>{'{{contact.name}}'}</code>, <code>{'{{agent.name}}'}</code> and <code>{'{{product.name}}'}</code> are filled in when one is sent.</p>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <div class="card"><EmptyState title="No saved replies">Save the answers you write again and again.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Title</th><th scope="col">Text</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.data.data.map((reply) => (
                <tr key={reply.id}>
                  <td><strong>{reply.title}</strong></td>
                  <td data-label="Text" class="cell-excerpt">{reply.body}</td>
                  <td data-label="Updated">{ago(reply.updated_at)}</td>
                  <td class="actions">
                    <Button small onClick={() => setEditing(reply)}>Edit<span class="visually-hidden"> {reply.title}</span></Button>
                    <Button small variant="danger" onClick={() => void remove(reply)}>Delete<span class="visually-hidden"> {reply.title}</span></Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager label="Saved reply pages" pagination={list.data.pagination} onPage={setOffset} />}
      {editing && <SavedReplyDialog reply={editing === 'new' ? null : editing} close={() => setEditing(null)} saved={() => void list.reload()} />}
    </section>
  );
}

function SavedReplyDialog({ reply, close, saved }: { reply: SavedReply | null; close: () => void; saved: () => void }) {
  const [title, setTitle] = useState(reply?.title ?? '');
  const [body, setBody] = useState(reply?.body ?? '');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const fields = { title, body };
      if (reply) await ok(api.PATCH('/api/v1/saved-replies/{id}', { params: { path: { id: reply.id } }, body: fields }));
      else await ok(api.POST('/api/v1/saved-replies', { body: fields }));
      announce(reply ? 'Saved reply updated' : 'Saved reply added');
      saved();
      close();
    });
  };
  const { fields } = action;
  return (
    <Dialog title={reply ? 'Edit saved reply' : 'New saved reply'} close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Title" value={title} error={fields.title} placeholder="Refund policy" onInput={(event) => setTitle(event.currentTarget.value)} />
        <TextArea label="Text" rows={6} value={body} error={fields.body} placeholder={'Hi {{contact.first_name}}, …'} onInput={(event) => setBody(event.currentTarget.value)} />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy}>{reply ? 'Save' : 'Add saved reply'}</Button>
        </div>
      </form>
    </Dialog>
  );
}
