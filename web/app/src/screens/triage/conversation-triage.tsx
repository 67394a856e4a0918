// A conversation's triage panel, above its messages: the automatic summary, and what triage
// suggests doing with the conversation (link it to an open issue that says the same, or create a
// new one from a draft) with Accept, Dismiss and, for a draft, edit before accepting. Earlier
// suggestions stay listed as accepted (linking to their issue) or dismissed. Nothing is shown twice
// (repeats.ts): a summary that is the customer's short message again, or a description that is the
// summary or the title again, is left out. Live: the summary comes with the conversation's events,
// suggestions with their own.
import { useId, useState } from 'preact/hooks';
import { api, describeError, ok } from '../../api/client.js';
import { useLiveEvents } from '../../api/live.js';
import { PriorityBadge } from '../../ui/badges.js';
import { Button } from '../../ui/form.js';
import { percent } from '../../ui/labels.js';
import { ErrorState, Loading } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { IssueDraftForm, type IssueDraft } from '../issues/issue-draft-form.js';
import { descriptionAddsSomething, summaryAddsSomething, type ContactText } from './repeats.js';
import { IssueRef, acceptSuggestion, decide, suggestionOf, upsert, type Suggestion } from './suggestions.js';

interface Props {
  conversationId: string;
  summary: string | null;
  /** The contact's messages: what a summary or a description would only repeat. */
  contact: ContactText;
}

export function ConversationTriage({ conversationId, summary, contact }: Props) {
  const suggestions = useResource(
    () => ok(api.GET('/api/v1/conversations/{id}/suggestions', { params: { path: { id: conversationId }, query: { limit: 200 } } })).then((answer) => answer.data),
    [conversationId],
  );
  const [rerunning, setRerunning] = useState(false);
  const headingId = useId();

  useLiveEvents((event) => {
    const suggestion = suggestionOf(event);
    if (suggestion?.conversation_id === conversationId && suggestions.data) suggestions.set(upsert(suggestions.data, suggestion));
  }, suggestions.reload);
  const settled = (next: Suggestion | null) => {
    // A refusal means someone else acted first: show what they did.
    if (next && suggestions.data) suggestions.set(upsert(suggestions.data, next));
    else void suggestions.reload();
  };

  const rerun = async () => {
    setRerunning(true);
    try {
      suggestions.set((await ok(api.POST('/api/v1/conversations/{id}/triage', { params: { path: { id: conversationId } } }))).data);
      announce('Triage ran again');
    } catch (failure) {
      announce(`Triage could not run: ${describeError(failure)}`, 'error');
    } finally {
      setRerunning(false);
    }
  };

  const list = suggestions.data ?? [];
  return (
    <section class="conversation-triage" aria-labelledby={headingId}>
      <h3 id={headingId} class="visually-hidden">Summary and triage</h3>
      {summaryAddsSomething(summary, contact) && (
        <div class="ai-summary">
          <p class="ai-summary-label">Automatic summary <span class="muted">· written by Loopdesk from the customer's messages</span></p>
          <p class="ai-summary-text">{summary}</p>
        </div>
      )}
      <div class="triage-head">
        <p class="triage-title">Triage</p>
        <Button small variant="ghost" busy={rerunning} onClick={() => void rerun()}>Run triage again</Button>
      </div>
      {suggestions.error ? <ErrorState error={suggestions.error} retry={suggestions.reload} /> : null}
      {!suggestions.data ? (suggestions.error ? null : <Loading label="Loading suggestions…" />) : list.length === 0 ? (
        <p class="muted small">No suggestion yet: triage matches a conversation against its product's open issues a few seconds after the customer's first message.</p>
      ) : (
        <ul class="plain-list suggestions" aria-label="Suggestions">
          {list.map((suggestion) => (
            <li key={suggestion.id} class={`suggestion suggestion-${suggestion.status}`}>
              {suggestion.status === 'open'
                ? <OpenSuggestion suggestion={suggestion} settled={settled} shown={{ summary: summaryAddsSomething(summary, contact) ? summary : null, contact }} />
                : <ClosedSuggestion suggestion={suggestion} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What the panel shows besides the suggestion: the summary (when shown) and the contact's messages. */
interface Shown {
  summary: string | null;
  contact: ContactText;
}

function OpenSuggestion({ suggestion, settled, shown }: { suggestion: Suggestion; settled: (next: Suggestion | null) => void; shown: Shown }) {
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const act = async (action: 'accept' | 'dismiss') => {
    setBusy(true);
    settled(await decide(suggestion, action));
    setBusy(false);
  };
  const actions = (
    <div class="row">
      <Button small variant="primary" busy={busy} onClick={() => void act('accept')}>Accept</Button>
      {suggestion.kind === 'create' && <Button small disabled={busy} onClick={() => setEditing(true)}>Edit before accepting</Button>}
      <Button small disabled={busy} onClick={() => void act('dismiss')}>Dismiss</Button>
    </div>
  );

  if (suggestion.kind === 'link') {
    return (
      <>
        <p class="suggestion-kind">Same as an open issue{suggestion.score !== null && <> · similarity {percent(suggestion.score)}</>}: link this conversation to it</p>
        <p><IssueRef issue={suggestion.issue!} /></p>
        {actions}
      </>
    );
  }
  return (
    <>
      <p class="suggestion-kind">New issue, drafted from this conversation{suggestion.score !== null && <> · closest open issue {percent(suggestion.score)}</>}</p>
      {editing ? <EditDraft suggestion={suggestion} settled={settled} close={() => setEditing(false)} /> : (
        <>
          <p class="suggestion-title">{suggestion.title} <PriorityBadge priority={suggestion.priority!} /></p>
          {descriptionAddsSomething(suggestion.description, { ...shown, title: suggestion.title! }) && <p class="suggestion-description">{suggestion.description}</p>}
          {actions}
        </>
      )}
      {suggestion.possible_duplicates.length > 0 && (
        <div class="possible-duplicates">
          <p class="small muted">Possible duplicates</p>
          <ul class="plain-list">
            {suggestion.possible_duplicates.map(({ issue, score }) => (
              <li key={issue.id}><IssueRef issue={issue} /> <span class="muted small">similarity {percent(score)}</span></li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** The draft's title, description and priority edited inline, then accepted with the edits. */
function EditDraft({ suggestion, settled, close }: { suggestion: Suggestion; settled: (next: Suggestion) => void; close: () => void }) {
  const [draft, setDraft] = useState<IssueDraft>({ title: suggestion.title ?? '', description: suggestion.description ?? '', priority: suggestion.priority ?? 'normal' });
  const action = useAction();
  const submit = async () => settled(await acceptSuggestion(suggestion, { title: draft.title, description: draft.description || null, priority: draft.priority }));
  return <IssueDraftForm draft={draft} change={setDraft} action={action} descriptionRows={3} close={close} submit={submit} submitLabel="Accept with these changes" />;
}

function ClosedSuggestion({ suggestion }: { suggestion: Suggestion }) {
  const { kind, status, issue } = suggestion;
  if (status === 'accepted') {
    return <p class="small"><span class="badge badge-accepted">Accepted</span> {kind === 'link' ? 'Linked to' : 'Created'} <IssueRef issue={issue!} /></p>;
  }
  return (
    <p class="small muted">
      <span class="badge">Dismissed</span> {kind === 'link' ? <>Link to <IssueRef issue={issue!} /></> : <>New issue “{suggestion.title}”</>}
    </p>
  );
}
