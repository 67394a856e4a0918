// One row of the triage queue: the suggestion's kind, its conversation (the row's link), what it
// suggests (the issue to link to, or the draft's title), the similarity, Accept and Dismiss. The
// selected row is the one the queue's keys act on; focusing anything in a row selects it.
import { Link } from '../../router.js';
import { Button } from '../../ui/form.js';
import { SUGGESTION_KINDS, percent } from '../../ui/labels.js';
import { IssueRef, type Suggestion } from './suggestions.js';

interface Props {
  suggestion: Suggestion;
  conversationTitle: string;
  selected: boolean;
  select: () => void;
  act: (action: 'accept' | 'dismiss') => void;
}

export function TriageRow({ suggestion, conversationTitle, selected, select, act }: Props) {
  const which = <span class="visually-hidden"> the suggestion for {conversationTitle}</span>;
  return (
    <li class="triage-row" data-suggestion-id={suggestion.id} aria-current={selected ? 'true' : undefined} onFocusIn={select} onClick={select}>
      <span class={`badge badge-kind-${suggestion.kind}`}>{SUGGESTION_KINDS[suggestion.kind]}</span>
      <div class="triage-row-main">
        <Link href={`/inbox/${suggestion.conversation_id}`} class="triage-row-link" aria-describedby="triage-keys">{conversationTitle}</Link>
        <span class="triage-row-target small">
          {suggestion.kind === 'link' ? <>Link to <IssueRef issue={suggestion.issue!} /></> : <>New issue “{suggestion.title}”</>}
        </span>
      </div>
      <span class="triage-row-score small muted">{suggestion.score === null ? 'no open issue' : `${suggestion.kind === 'link' ? 'similarity' : 'closest open issue'} ${percent(suggestion.score)}`}</span>
      <span class="triage-row-actions">
        <Button small variant="primary" onClick={() => act('accept')}>Accept{which}</Button>
        <Button small onClick={() => act('dismiss')}>Dismiss{which}</Button>
      </span>
    </li>
  );
}
