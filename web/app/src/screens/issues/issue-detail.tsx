// An issue, over the board: title and description, status, priority and assignee (saved as they
// change), the resolution comment, the conversations linked to it and where it came from.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, describeError, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { StatusBadge } from '../../ui/badges.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, Select, TextArea, TextField } from '../../ui/form.js';
import { ISSUE_STATUSES, PRIORITIES, entries, fullDate, type IssueStatus, type Priority } from '../../ui/labels.js';
import { ErrorState, Loading, useTitle } from '../../ui/page.js';
import { TagEditor } from '../../ui/tag-editor.js';
import { announce } from '../../ui/toast.js';
import { useResource } from '../../use-resource.js';

type Issue = Schemas['Issue'];
type Patch = { title?: string; description?: string | null; status?: IssueStatus; priority?: Priority; assignee_id?: string | null; resolution_comment?: string | null; tags?: string[] };

export function IssueDetail({ id, close, changed }: { id: string; close: () => void; changed: () => void }) {
  const issue = useResource(() => ok(api.GET('/api/v1/issues/{id}', { params: { path: { id } } })).then((answer) => answer.data), [id]);
  const title = issue.data ? `${issue.data.shortcode} · ${issue.data.title}` : 'Issue';
  return (
    <Dialog title={issue.data?.shortcode ?? 'Issue'} close={close} wide>
      {issue.data ? <IssueForm issue={issue.data} saved={(next) => { issue.set(next); changed(); }} pageTitle={title} />
        : issue.error ? <ErrorState error={issue.error} retry={issue.reload} /> : <Loading />}
    </Dialog>
  );
}

function IssueForm({ issue, saved, pageTitle }: { issue: Issue; saved: (issue: Issue) => void; pageTitle: string }) {
  const session = useSession();
  useTitle(pageTitle);
  const [title, setTitle] = useState(issue.title);
  const [description, setDescription] = useState(issue.description ?? '');
  const [resolution, setResolution] = useState(issue.resolution_comment ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setTitle(issue.title);
    setDescription(issue.description ?? '');
    setResolution(issue.resolution_comment ?? '');
  }, [issue.id]);

  const save = async (body: Patch, message: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await ok(api.PATCH('/api/v1/issues/{id}', { params: { path: { id: issue.id } }, body }));
      saved(answer.data);
      announce(message);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const unlink = async (conversationId: string) => {
    try {
      const answer = await ok(api.DELETE('/api/v1/issues/{id}/conversations/{conversation_id}', { params: { path: { id: issue.id, conversation_id: conversationId } } }));
      saved(answer.data);
      announce('Conversation unlinked');
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  const textChanged = title !== issue.title || description !== (issue.description ?? '') || resolution !== (issue.resolution_comment ?? '');
  const fields = error instanceof ApiError ? error.fields : {};
  const assignees: [string, string][] = [['', 'Unassigned'], ...session.members.map((m): [string, string] => [m.id, m.display_name ?? 'Unnamed member'])];
  return (
    <div class="issue-detail">
      <form class="stack" onSubmit={(event) => { event.preventDefault(); void save({ title, description: description || null, resolution_comment: resolution || null }, 'Issue saved'); }}>
        <FormError message={error && !Object.keys(fields).length ? describeError(error) : null} />
        <TextField label="Title" required maxLength={500} value={title} error={fields.title} onInput={(event) => setTitle(event.currentTarget.value)} />
        <TextArea label="Description" rows={6} value={description} error={fields.description} onInput={(event) => setDescription(event.currentTarget.value)} />
        <TextArea label="Resolution comment" rows={3} value={resolution} error={fields.resolution_comment}
          hint="How it was fixed: shown with the issue once it is done." onInput={(event) => setResolution(event.currentTarget.value)} />
        <div class="row"><Button type="submit" variant="primary" busy={busy} disabled={!textChanged || !title.trim()}>Save changes</Button></div>
        <section aria-labelledby="linked-heading">
          <h3 id="linked-heading" class="section-title">Linked conversations ({issue.linked_conversations.length})</h3>
          {issue.linked_conversations.length === 0 ? <p class="muted small">None yet. Create an issue from a conversation in the inbox to link it.</p> : (
            <ul class="plain-list linked-list">
              {issue.linked_conversations.map((conversation) => (
                <li key={conversation.id}>
                  <Link href={`/inbox/${conversation.id}`}>{conversation.title}</Link>
                  <span class="row"><StatusBadge status={conversation.status} /><Button small variant="ghost" onClick={() => void unlink(conversation.id)}>Unlink</Button></span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </form>
      <aside aria-label="Issue properties">
        <Select label="Status" value={issue.status} options={entries(ISSUE_STATUSES)} onChange={(status) => void save({ status }, `Status set to ${ISSUE_STATUSES[status]}`)} />
        <Select label="Priority" value={issue.priority} options={entries(PRIORITIES)} onChange={(priority) => void save({ priority }, `Priority set to ${PRIORITIES[priority]}`)} />
        <Select label="Assignee" value={issue.assignee_id ?? ''} options={assignees}
          onChange={(assignee) => void save({ assignee_id: assignee || null }, assignee ? `Assigned to ${session.memberName(assignee)}` : 'Unassigned')} />
        <div class="field"><span class="field-label">Tags</span><TagEditor label="Issue tags" tags={issue.tags} save={(tags) => save({ tags }, 'Tags saved')} /></div>
        <dl class="meta-list">
          <dt>Product</dt><dd>{session.productName(issue.product_id)}</dd>
          <dt>Sources</dt><dd>{issue.sources_count === 0 ? 'Created by hand' : `${issue.sources_count} report${issue.sources_count === 1 ? '' : 's'} through the deduplicating create`}</dd>
          <dt>Created</dt><dd>{fullDate(issue.created_at)}</dd>
          <dt>Updated</dt><dd>{fullDate(issue.updated_at)}</dd>
        </dl>
      </aside>
    </div>
  );
}
