// The ordered actions of a rule or a macro, built row by row: each row a type and its one
// parameter (a member, tags, a priority, a status, a note, a saved reply), moved up and down or
// removed; the server's errors shown in the row they name (`actions[2].member_id`).
import type { ComponentChildren } from 'preact';
import { api, ok } from '../../api/client.js';
import { Button, Select, TextArea } from '../../ui/form.js';
import { CONVERSATION_STATUSES, PRIORITIES, entries } from '../../ui/labels.js';
import { useResource } from '../../use-resource.js';
import { PickOne, PickTags, useChoices } from './pickers.js';
import { ACTION_PARAMETER, ACTIONS, newAction, rowErrors, type ActionDraft } from './vocabulary.js';
import './automation.css';

export const ACTIONS_MAX = 20;

export interface ListProps<T> {
  rows: T[];
  onChange: (rows: T[]) => void;
  /** The server's field errors of the last save (`{}` when none). */
  fields: Record<string, string>;
  /** The rows' keys as that save sent them. */
  sent: readonly number[];
}

export function ActionRows({ rows, onChange, fields, sent }: ListProps<ActionDraft>) {
  const savedReplies = useResource(() => ok(api.GET('/api/v1/saved-replies', { params: { query: { limit: 200 } } })).then((answer) => answer.data), []);
  const replyChoices = (savedReplies.data ?? []).map((reply): [string, string] => [reply.id, reply.title]);
  const change = (index: number, next: ActionDraft) => onChange(rows.map((row, i) => (i === index ? next : row)));
  return (
    <section class="automation-rows" aria-labelledby="actions-heading">
      <h3 id="actions-heading">Then, in this order</h3>
      {fields.actions && <p class="field-error" role="alert">{fields.actions}</p>}
      <ol class="plain-list automation-list">
        {rows.map((row, index) => (
          <ActionRow key={row.key} row={row} index={index} count={rows.length} replyChoices={replyChoices}
            errors={rowErrors(fields, 'actions', sent, row.key)} change={(next) => change(index, next)} onMove={(to) => onChange(moved(rows, index, to))}
            remove={() => onChange(rows.filter((_, i) => i !== index))} />
        ))}
      </ol>
      {rows.length < ACTIONS_MAX && <div><Button small onClick={() => onChange([...rows, newAction()])}>Add an action</Button></div>}
    </section>
  );
}

/** `rows` with the one at `from` moved to `to`. */
const moved = <T,>(rows: T[], from: number, to: number): T[] => {
  const next = rows.filter((_, i) => i !== from);
  next.splice(to, 0, rows[from]);
  return next;
};

interface RowProps {
  row: ActionDraft;
  index: number;
  count: number;
  replyChoices: [string, string][];
  errors: Record<string, string>;
  change: (next: ActionDraft) => void;
  onMove: (to: number) => void;
  remove: () => void;
}

/** What `assign` takes for "the next free member of the conversation's product" (docs/automation.md, "Assignment"). */
const ROUND_ROBIN = 'round_robin';

function ActionRow({ row, index, count, replyChoices, errors, change, onMove, remove }: RowProps) {
  const name = `Action ${index + 1}`;
  const parameter = ACTION_PARAMETER[row.type];
  const error = errors[parameter];
  const assignees: [string, string][] = [[ROUND_ROBIN, 'Round robin (the product\'s assignment)'], ...useChoices('member')];
  const others = Object.entries(errors).filter(([part]) => part !== parameter && part !== 'type').map(([, message]) => message);
  return (
    <AutomationRow legend={name} error={[errors.type, ...others].filter(Boolean).join('; ')} tools={(
      <>
        <Button small disabled={index === 0} onClick={() => onMove(index - 1)}>Up<span class="visually-hidden"> ({name})</span></Button>
        <Button small disabled={index === count - 1} onClick={() => onMove(index + 1)}>Down<span class="visually-hidden"> ({name})</span></Button>
        <Button small variant="danger" disabled={count === 1} onClick={remove}>Remove<span class="visually-hidden"> {name}</span></Button>
      </>
    )}>
      <Select label="Action" value={row.type} options={entries(ACTIONS)} onChange={(type) => change({ ...row, type })} />
      {row.type === 'assign' && <PickOne label="Member" value={row.member_id} choices={assignees} placeholder="Pick a member" error={error} onChange={(member_id) => change({ ...row, member_id })} />}
      {(row.type === 'add_tags' || row.type === 'remove_tags') && <PickTags label="Tags" tags={row.tags} error={error} onChange={(tags) => change({ ...row, tags })} />}
      {row.type === 'set_priority' && <Select label="Priority" value={row.priority} options={entries(PRIORITIES)} error={error} onChange={(priority) => change({ ...row, priority })} />}
      {row.type === 'set_status' && <Select label="Status" value={row.status} options={entries(CONVERSATION_STATUSES)} error={error} onChange={(status) => change({ ...row, status })} />}
      {row.type === 'add_note' && <TextArea label="Note" rows={3} value={row.body} error={error} onInput={(event) => change({ ...row, body: event.currentTarget.value })} />}
      {row.type === 'reply' && <PickOne label="Saved reply" value={row.saved_reply_id} choices={replyChoices} placeholder={replyChoices.length ? 'Pick a saved reply' : 'No saved replies yet'} error={error} onChange={(saved_reply_id) => change({ ...row, saved_reply_id })} />}
    </AutomationRow>
  );
}

/** One row of a condition or action list: its number as its name, its controls, its tools, and its own error. */
export function AutomationRow({ legend, error, tools, children }: { legend: string; error?: string; tools: ComponentChildren; children: ComponentChildren }) {
  return (
    <li>
      <fieldset class={`automation-row ${error ? 'automation-row-invalid' : ''}`}>
        <legend>{legend}</legend>
        <div class="automation-row-controls">{children}</div>
        <div class="automation-row-tools">{tools}</div>
        {error && <p class="field-error">{error}</p>}
      </fieldset>
    </li>
  );
}
