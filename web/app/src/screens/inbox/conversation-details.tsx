// A conversation's details panel, beside its thread (below it on narrow screens): what the team
// does with it (the actions), where it stands (status, priority, assignee), its tags and linked
// issues, the contact, and the automatic summary with triage's suggestions. The conversation's
// own view owns the data and the writes; this only lays them out.
import type { Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { StatusBadge } from '../../ui/badges.js';
import { Button, Select } from '../../ui/form.js';
import { CONVERSATION_STATUSES, PRIORITIES, entries } from '../../ui/labels.js';
import { TagEditor } from '../../ui/tag-editor.js';
import { ContactPanel } from '../contacts/contact-panel.js';
import { MacroMenu } from '../automation/macro-menu.js';
import { ConversationTriage } from '../triage/conversation-triage.js';
import { ConversationSlaPanel } from './conversation-sla.js';
import { SnoozeControl } from './snooze-control.js';
import type { ConversationChanges } from './conversation-view.js';

interface Props {
  id: string;
  conversation: Schemas['ConversationDetail'];
  update: (body: ConversationChanges, done: string) => Promise<void>;
  assign: (assignee: string | null) => Promise<void>;
  createIssue: () => void;
  reload: () => void;
  /** Shows the conversation as a macro's run left it. */
  replace: (conversation: Schemas['ConversationDetail']) => void;
}

export function ConversationDetails({ id, conversation: data, update, assign, createIssue, reload, replace }: Props) {
  const session = useSession();
  const myId = session.me.member?.id ?? null;
  return (
    <section id={`details-${id}`} class="conversation-details" aria-label="Conversation details">
      {/* One toolbar for what is done to the conversation. */}
      <div class="details-actions" role="group" aria-label="Actions">
        {myId && data.assignee_id !== myId && (
          <Button small onClick={() => void assign(myId)} title="Assign to me (M)">Assign to me <kbd>M</kbd></Button>
        )}
        <Button small onClick={createIssue}>Create issue</Button>
        <MacroMenu conversationId={id} ran={replace} />
      </div>
      <div class="details-section details-properties">
        <Select label="Status" value={data.status} options={entries(CONVERSATION_STATUSES)} onChange={(status) => void update({ status }, `Status set to ${CONVERSATION_STATUSES[status]}`)} />
        <Select label="Priority" value={data.priority} options={entries(PRIORITIES)} onChange={(priority) => void update({ priority }, `Priority set to ${PRIORITIES[priority]}`)} />
        <Select label="Assignee" value={data.assignee_id ?? ''}
          options={[['', 'Unassigned'], ...session.members.map((member): [string, string] => [member.id, `${member.display_name ?? 'Unnamed member'}${member.id === myId ? ' (you)' : ''}`])]}
          onChange={(assignee) => void assign(assignee || null)} />
        <SnoozeControl conversation={data} update={update} />
      </div>
      <ConversationSlaPanel conversation={data} />
      <div class="details-section">
        <h3 class="small-heading">Tags</h3>
        <TagEditor label="Conversation tags" tags={data.tags} save={(tags) => update({ tags }, 'Tags saved')} />
        {data.linked_issues.length > 0 && (
          <>
            <h3 class="small-heading">Linked issues</h3>
            <ul class="plain-list linked-issues">
              {data.linked_issues.map((issue) => (
                <li key={issue.id}><Link href={`/issues/${issue.shortcode}`}>{issue.shortcode}</Link> {issue.title} <StatusBadge status={issue.status} /></li>
              ))}
            </ul>
          </>
        )}
      </div>
      {data.contact && <ContactPanel contactId={data.contact.id} currentConversationId={id} erased={reload} />}
      <ConversationTriage conversationId={id} summary={data.ai_summary} contact={data.messages.filter((message) => message.sender_type === 'contact').map((message) => message.body)} />
    </section>
  );
}
