// "Create issue" from a conversation, through the deduplicating create (POST /issues/maybe with
// the conversation linked): the answer says whether it made a new issue or matched an open one,
// and which others look alike, any of which can be linked too.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { Button } from '../../ui/form.js';
import { Dialog } from '../../ui/dialog.js';
import { percent } from '../../ui/labels.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { IssueDraftForm, type IssueDraft } from '../issues/issue-draft-form.js';

type Result = Schemas['DeduplicatingCreateResult'];
interface IssueRef { id: string; shortcode: string; title: string }

interface Props {
  conversation: Schemas['ConversationDetail'];
  close: () => void;
  linked: (issue: IssueRef) => void;
}

const firstContactMessage = (conversation: Schemas['ConversationDetail']) =>
  conversation.messages.find((message) => message.sender_type === 'contact')?.body ?? '';

export function CreateIssueDialog({ conversation, close, linked }: Props) {
  const [draft, setDraft] = useState<IssueDraft>({
    title: conversation.title, description: firstContactMessage(conversation), priority: conversation.priority,
  });
  const action = useAction();
  const [result, setResult] = useState<Result | null>(null);

  const submit = async () => {
    const answer = await ok(api.POST('/api/v1/issues/maybe', {
      body: {
        product_id: conversation.product_id, title: draft.title, description: draft.description || null, priority: draft.priority,
        conversation_id: conversation.id,
      },
    }));
    setResult(answer);
    linked(answer.data);
    announce(answer.matched_existing ? `Linked to existing issue ${answer.data.shortcode}` : `Created ${answer.data.shortcode}`);
  };

  if (result) return <Dialog title={result.matched_existing ? 'Matched an existing issue' : 'Issue created'} close={close}><Outcome result={result} conversationId={conversation.id} linked={linked} close={close} /></Dialog>;
  return (
    <Dialog title="Create issue" close={close}>
      <p class="muted">Loopdesk first looks for an open issue that says the same thing; if there is one, the conversation is linked to it instead.</p>
      <IssueDraftForm draft={draft} change={setDraft} action={action} descriptionRows={5} close={close} submit={submit} />
    </Dialog>
  );
}

function Outcome({ result, conversationId, linked, close }: { result: Result; conversationId: string; linked: Props['linked']; close: () => void }) {
  const issue = result.data;
  const [alsoLinked, setAlsoLinked] = useState<string[]>([]);
  const link = async (duplicate: IssueRef) => {
    try {
      await ok(api.POST('/api/v1/issues/{id}/conversations', { params: { path: { id: duplicate.id } }, body: { conversation_id: conversationId } }));
      setAlsoLinked((list) => [...list, duplicate.id]);
      linked(duplicate);
      announce(`Also linked to ${duplicate.shortcode}`);
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };
  return (
    <div class="stack">
      <div class={`alert ${result.matched_existing ? 'alert-info' : 'alert-success'}`}>
        {result.matched_existing
          ? <>This report matches <strong>{issue.shortcode}</strong>{result.score !== null && <> (similarity {percent(result.score)})</>}. The conversation is now linked to it; no new issue was created.</>
          : <>Created <strong>{issue.shortcode}</strong> and linked the conversation to it.</>}
      </div>
      <p class="issue-ref"><Link href={`/issues/${issue.shortcode}`} onClick={close}>{issue.shortcode} · {issue.title}</Link></p>
      {result.possible_duplicates.length > 0 && (
        <section aria-labelledby="possible-duplicates">
          <h3 id="possible-duplicates">Possibly the same</h3>
          <ul class="plain-list">
            {result.possible_duplicates.map((duplicate) => (
              <li key={duplicate.id} class="duplicate-row">
                <Link href={`/issues/${duplicate.shortcode}`} onClick={close}>{duplicate.shortcode} · {duplicate.title}</Link>
                <span class="muted">{percent(duplicate.score)}</span>
                {alsoLinked.includes(duplicate.id)
                  ? <span class="muted">Linked</span>
                  : <Button small onClick={() => void link(duplicate)}>Link {duplicate.shortcode} too</Button>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div class="dialog-actions"><Button variant="primary" onClick={close}>Done</Button></div>
    </div>
  );
}
