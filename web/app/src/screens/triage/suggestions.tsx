// What the conversation's triage panel and the triage queue share: accepting and dismissing a
// suggestion (with the outcome announced), a suggestion kept current by its live events, and how
// an issue a suggestion names is shown.
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import type { LiveEvent } from '../../api/live.js';
import { Link } from '../../router.js';
import { StatusBadge } from '../../ui/badges.js';
import { announce } from '../../ui/toast.js';

export type Suggestion = Schemas['Suggestion'];
export type IssueBase = Schemas['IssueBase'];
/** The optional body of an accept: the draft's fields edited first. */
export type AcceptEdits = { title?: string; description?: string | null; priority?: NonNullable<Suggestion['priority']> };

/** Accepts (as suggested, or with `edits`); throws the server's refusal. */
export async function acceptSuggestion(suggestion: Suggestion, edits: AcceptEdits = {}): Promise<Suggestion> {
  const answer = await ok(api.POST('/api/v1/suggestions/{id}/accept', { params: { path: { id: suggestion.id } }, body: edits }));
  const issue = answer.data.issue!;
  announce(suggestion.kind === 'link' ? `Linked to ${issue.shortcode}` : `Created ${issue.shortcode}`);
  return answer.data;
}

async function dismissSuggestion(suggestion: Suggestion): Promise<Suggestion> {
  const answer = await ok(api.POST('/api/v1/suggestions/{id}/dismiss', { params: { path: { id: suggestion.id } } }));
  announce('Suggestion dismissed');
  return answer.data;
}

/**
 * Accepts as suggested or dismisses; a refusal (someone else acted first: "suggestion is already
 * accepted") is announced as an error, like the board's refused moves, and gives null.
 */
export async function decide(suggestion: Suggestion, action: 'accept' | 'dismiss'): Promise<Suggestion | null> {
  try {
    return await (action === 'accept' ? acceptSuggestion(suggestion) : dismissSuggestion(suggestion));
  } catch (failure) {
    announce(`The suggestion could not be ${action === 'accept' ? 'accepted' : 'dismissed'}: ${describeError(failure)}`, 'error');
    return null;
  }
}

/** The suggestion a `suggestion.created` or `suggestion.updated` event carries, else null. */
export function suggestionOf(event: LiveEvent): Suggestion | null {
  if (event.type !== 'suggestion.created' && event.type !== 'suggestion.updated') return null;
  const { previous: _, ...suggestion } = event.data as unknown as Suggestion & { previous?: unknown };
  return suggestion;
}

/**
 * `list` with `next` in place (or added last, as the newest), unless what is shown is newer: an
 * event delayed on the stream must not undo an answer already shown.
 */
export function upsert(list: Suggestion[], next: Suggestion): Suggestion[] {
  const shown = list.find((suggestion) => suggestion.id === next.id);
  if (!shown) return [...list, next];
  if (shown.updated_at > next.updated_at) return list;
  return list.map((suggestion) => (suggestion.id === next.id ? next : suggestion));
}

/** "APP-12 Title [Pending]", the shortcode linking to the issue. */
export function IssueRef({ issue }: { issue: IssueBase }) {
  return (
    <span class="issue-ref-inline">
      <Link href={`/issues/${issue.shortcode}`}>{issue.shortcode}</Link> <span class="issue-ref-title">{issue.title}</span> <StatusBadge status={issue.status} />
    </span>
  );
}
