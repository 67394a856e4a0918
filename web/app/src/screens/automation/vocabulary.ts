// What the rule and macro forms offer, and how their rows become the API's conditions and actions
// (docs/automation.md): the events, the fields with the operators each takes and the kind of value
// it reads, the action types with their one parameter, and the server's field errors found by a
// row's place (`actions[2].member_id`).
import type { Schemas } from '../../api/client.js';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES, type ConversationStatus, type Priority } from '../../ui/labels.js';

export type Rule = Schemas['AutomationRule'];
export type RuleEvent = Rule['event'];
export type Condition = Schemas['AutomationCondition'];
export type ConditionField = Condition['field'];
export type Action = Schemas['AutomationAction'];
export type ActionType = Action['type'];

export const EVENTS: Record<RuleEvent, string> = {
  'conversation.created': 'A conversation is created',
  'message.created': 'A contact sends a message',
  'conversation.updated': 'A conversation is updated',
  'conversation.sla_breached': 'An SLA is breached',
};

/** What a field's value is picked from: a fixed list, the products, the members, tags, or free text. */
export type ValueKind = 'enum' | 'product' | 'member' | 'tag' | 'text';

export const SOURCES: Record<Schemas['Conversation']['source'], string> = { chat: 'Chat', form: 'Form', email: 'Email' };

interface FieldSpec {
  label: string;
  kind: ValueKind;
  /** The enum's values and labels (kind `enum`). */
  options?: Record<string, string>;
  /** Whether "is empty" makes sense (no assignee, no tags, no summary, no email). */
  canBeEmpty?: boolean;
}

export const FIELDS: Record<ConditionField, FieldSpec> = {
  product_id: { label: 'Product', kind: 'product' },
  type: { label: 'Type', kind: 'enum', options: CONVERSATION_TYPES },
  source: { label: 'Source', kind: 'enum', options: SOURCES },
  status: { label: 'Status', kind: 'enum', options: CONVERSATION_STATUSES },
  priority: { label: 'Priority', kind: 'enum', options: PRIORITIES },
  tags: { label: 'Tags', kind: 'tag', canBeEmpty: true },
  assignee_id: { label: 'Assignee', kind: 'member', canBeEmpty: true },
  title: { label: 'Title', kind: 'text' },
  'contact.email': { label: 'Contact email', kind: 'text', canBeEmpty: true },
  'message.body': { label: 'Message text', kind: 'text' },
  ai_summary: { label: 'Summary', kind: 'text', canBeEmpty: true },
};

/** The form's operators: the API's five, and "is empty" / "is not empty" (equals / not_equals null). */
export type FormOperator = Condition['operator'] | 'empty' | 'not_empty';

const TEXT_OPERATORS: Record<FormOperator, string> = {
  equals: 'is', not_equals: 'is not', in: 'is any of', contains: 'contains', matches: 'matches the pattern', empty: 'is empty', not_empty: 'is not empty',
};
const TAG_OPERATORS: Record<FormOperator, string> = {
  equals: 'has the tag', not_equals: 'does not have the tag', in: 'has any of', contains: 'has a tag containing', matches: 'has a tag matching',
  empty: 'has no tags', not_empty: 'has a tag',
};

/** The operators valid for `field`, with their labels: `contains` and `matches` read text, so not the lists nor the ids. */
export function operatorsFor(field: ConditionField): [FormOperator, string][] {
  const { kind, canBeEmpty } = FIELDS[field];
  const labels = kind === 'tag' ? TAG_OPERATORS : TEXT_OPERATORS;
  const allowed: FormOperator[] = kind === 'tag' || kind === 'text' ? ['equals', 'not_equals', 'in', 'contains', 'matches'] : ['equals', 'not_equals', 'in'];
  if (canBeEmpty) allowed.push('empty', 'not_empty');
  return allowed.map((operator) => [operator, labels[operator]]);
}

export const ACTIONS: Record<ActionType, string> = {
  assign: 'Assign to', add_tags: 'Add tags', remove_tags: 'Remove tags', set_priority: 'Set priority',
  set_status: 'Set status', add_note: 'Add an internal note', reply: 'Reply with a saved reply',
};

/** The one parameter of each action type: where the server names its errors (`actions[i].<parameter>`). */
export const ACTION_PARAMETER = {
  assign: 'member_id', add_tags: 'tags', remove_tags: 'tags', set_priority: 'priority', set_status: 'status', add_note: 'body', reply: 'saved_reply_id',
} as const satisfies Record<ActionType, string>;

/** A condition as the form edits it. `value` holds one value (or, for text `in`, one per line); `values` the picks of a list. */
export interface ConditionDraft {
  key: number;
  field: ConditionField;
  operator: FormOperator;
  value: string;
  values: string[];
}

/** An action as the form edits it: every type's parameter kept, so switching types back and forth loses nothing. */
export interface ActionDraft {
  key: number;
  type: ActionType;
  member_id: string;
  tags: string[];
  priority: Priority;
  status: ConversationStatus;
  body: string;
  saved_reply_id: string;
}

let nextKey = 1;
const key = () => nextKey++;

export function newCondition(field: ConditionField = 'title'): ConditionDraft {
  const options = FIELDS[field].options;
  return { key: key(), field, operator: 'equals', value: options ? Object.keys(options)[0] : '', values: [] };
}

export function newAction(type: ActionType = 'add_tags'): ActionDraft {
  return { key: key(), type, member_id: '', tags: [], priority: 'high', status: 'resolved', body: '', saved_reply_id: '' };
}

export function conditionDraft(condition: Condition): ConditionDraft {
  const draft = newCondition(condition.field);
  const { value } = condition;
  if (value === null) return { ...draft, operator: condition.operator === 'not_equals' ? 'not_empty' : 'empty', value: '' };
  if (Array.isArray(value)) {
    const lines = FIELDS[condition.field].kind === 'text';
    return { ...draft, operator: 'in', value: lines ? value.join('\n') : '', values: lines ? [] : value };
  }
  return { ...draft, operator: condition.operator, value };
}

export function conditionOf(draft: ConditionDraft): Condition {
  const { field, operator } = draft;
  if (operator === 'empty') return { field, operator: 'equals', value: null };
  if (operator === 'not_empty') return { field, operator: 'not_equals', value: null };
  if (operator !== 'in') return { field, operator, value: draft.value };
  const values = FIELDS[field].kind === 'text' ? draft.value.split('\n').map((line) => line.trim()).filter(Boolean) : draft.values;
  return { field, operator, value: values };
}

export function actionDraft(action: Action): ActionDraft {
  return { ...newAction(action.type), ...action };
}

export function actionOf(draft: ActionDraft): Action {
  const parameter = ACTION_PARAMETER[draft.type];
  return { type: draft.type, [parameter]: draft[parameter] } as Action;
}

/**
 * The server's field errors about a row: its index in the list as it was sent (`sent`, the rows'
 * keys then), so they stay with their row when rows are moved or removed afterwards.
 */
export function rowErrors(fields: Record<string, string>, list: 'conditions' | 'actions', sent: readonly number[], key: number): Record<string, string> {
  const index = sent.indexOf(key);
  return index < 0 ? {} : errorsAt(fields, `${list}[${index}]`);
}

/**
 * The server's field errors about the item at `place` (`actions[2]`), by the part they name
 * (`member_id`, `value` for `value[1]` too); the item's own (an unknown field, the item itself) under `''`.
 */
function errorsAt(fields: Record<string, string>, place: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields)) {
    if (name !== place && !name.startsWith(`${place}.`)) continue;
    const part = name.slice(place.length + 1).split(/[.[]/)[0];
    found[part] = found[part] ? `${found[part]}; ${message}` : message;
  }
  return found;
}
