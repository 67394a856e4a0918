import { CONVERSATION_STATUSES, ISSUE_STATUSES, PRIORITIES, initials, type ConversationStatus, type IssueStatus, type Priority } from './labels.js';

export function StatusBadge({ status }: { status: IssueStatus | ConversationStatus }) {
  const label = (ISSUE_STATUSES as Record<string, string>)[status] ?? (CONVERSATION_STATUSES as Record<string, string>)[status];
  return <span class={`badge badge-status-${status}`}>{label}</span>;
}

export function PriorityBadge({ priority, quiet }: { priority: Priority; quiet?: boolean }) {
  if (quiet && (priority === 'normal' || priority === 'low')) return null;
  return <span class={`badge badge-priority-${priority}`}>{PRIORITIES[priority]}</span>;
}

export function Avatar({ name, small }: { name: string | null | undefined; small?: boolean }) {
  return <span class={`avatar ${small ? 'avatar-small' : ''}`} aria-hidden="true">{initials(name)}</span>;
}

/** A widget contact the host site signed in (an identity token), as opposed to what a visitor typed. */
export function VerifiedBadge() {
  return <span class="badge badge-verified" title="Signed in by your site with an identity token">Verified</span>;
}
