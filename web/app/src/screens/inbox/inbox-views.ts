// What each of the inbox's views asks the list for: the open views (Mine, Unassigned, All) leave
// snoozed conversations out; Snoozed lists only them, whoever owns them (docs/app.md, "Snooze").
import type { InboxView } from './conversation-list.js';

export function viewQuery(view: InboxView): { snoozed: boolean; assignee_id?: string } {
  if (view === 'snoozed') return { snoozed: true };
  return { snoozed: false, ...(view !== 'all' && { assignee_id: view === 'mine' ? 'me' : 'none' }) };
}
