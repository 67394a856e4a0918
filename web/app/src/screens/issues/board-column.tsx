// One column of the board: its heading (the status name), its cards, a drop target.
import { useState } from 'preact/hooks';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { Avatar, PriorityBadge } from '../../ui/badges.js';
import { Button } from '../../ui/form.js';
import { ISSUE_STATUSES, type IssueStatus } from '../../ui/labels.js';
import { Loading } from '../../ui/page.js';
import type { ColumnState, IssueItem } from './columns.js';

interface Props {
  status: IssueStatus;
  column: ColumnState | undefined;
  hrefOf: (issue: IssueItem) => string;
  onDrop: (issue: IssueItem) => void;
  onKeyMove: (issue: IssueItem, step: number) => void;
  onShowMore: () => void;
  findIssue: (id: string) => IssueItem | undefined;
}

const DRAG_TYPE = 'application/x-loopdesk-issue';

export function BoardColumn({ status, column, hrefOf, onDrop, onKeyMove, onShowMore, findIssue }: Props) {
  const { memberName } = useSession();
  const [dropping, setDropping] = useState(false);
  const headingId = `column-${status}`;
  return (
    <section
      class={`column ${dropping ? 'column-drop' : ''}`}
      aria-labelledby={headingId}
      onDragOver={(event) => {
        if (!event.dataTransfer?.types.includes(DRAG_TYPE)) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDropping(false);
        const issue = findIssue(event.dataTransfer?.getData(DRAG_TYPE) ?? '');
        if (issue) onDrop(issue);
      }}
    >
      <div class="column-head">
        <h2 id={headingId}>{ISSUE_STATUSES[status]}</h2>
        {column && <span class="column-count">{column.total}</span>}
      </div>
      {!column ? <Loading /> : (
        <ul class="column-cards" aria-labelledby={headingId}>
          {column.items.map((issue) => (
            <li
              key={issue.id}
              class="issue-card"
              data-issue-id={issue.id}
              draggable
              onDragStart={(event) => event.dataTransfer?.setData(DRAG_TYPE, issue.id)}
              onKeyDown={(event) => {
                if (!event.altKey || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
                event.preventDefault();
                onKeyMove(issue, event.key === 'ArrowRight' ? 1 : -1);
              }}
            >
              <div class="issue-card-top">
                <span>{issue.shortcode}</span>
                <PriorityBadge priority={issue.priority} quiet />
              </div>
              <Link href={hrefOf(issue)} aria-describedby="board-keys">{issue.title}</Link>
              <div class="issue-card-foot">
                {issue.linked_conversations_count > 0 && <span>{issue.linked_conversations_count} conversation{issue.linked_conversations_count === 1 ? '' : 's'}</span>}
                {issue.assignee_id && <span title={memberName(issue.assignee_id)}><Avatar name={memberName(issue.assignee_id)} small /><span class="visually-hidden">Assigned to {memberName(issue.assignee_id)}</span></span>}
              </div>
            </li>
          ))}
          {column.items.length === 0 && <li class="muted small column-empty">No issues</li>}
        </ul>
      )}
      {column && column.items.length < column.total && (
        <div class="column-more"><Button small variant="ghost" onClick={onShowMore}>Show more ({column.total - column.items.length})</Button></div>
      )}
    </section>
  );
}
