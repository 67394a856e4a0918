// What rules and macros say (docs/automation.md): the events a rule listens to, the conditions it
// tests and the actions both run, and their validation. Bodies carry conditions and actions as
// plain objects; every problem is reported by its place (`conditions[2].value`,
// `actions[0].member_id`), all of them in one answer, and what is stored is the checked form.
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { SavedReplyRepository } from '../../db/repositories/saved-reply.repository.js';
import { AppError, type FieldErrors } from '../../errors.js';
import { parseUuid } from '../../lib/ids.js';
import { MESSAGE_BODY_MAX } from '../conversations/conversation.service.js';
import { CONVERSATION_SOURCES, CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES, type ConversationStatus, type Priority } from '../shared/enums.js';
import { normalizeTags, TAGS_MAX } from '../tags/tags.js';
import { patternProblem } from './regex-safety.js';

/** `assign`'s `member_id` that hands the conversation to its product's assignment (docs/automation.md, "Assignment"). */
export const ROUND_ROBIN = 'round_robin';

/** Whether `actions` may assign in turn: who runs them takes the product's assignment lock before the conversation's. */
export const assignsInTurn = (actions: readonly { type: string; member_id?: string }[]): boolean =>
  actions.some((action) => action.type === 'assign' && action.member_id === ROUND_ROBIN);

export const RULE_EVENTS = ['conversation.created', 'message.created', 'conversation.updated', 'conversation.sla_breached'] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];

export const CONDITION_FIELDS = [
  'product_id', 'type', 'source', 'status', 'priority', 'tags', 'assignee_id', 'title', 'contact.email', 'message.body', 'ai_summary',
] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

export const OPERATORS = ['equals', 'not_equals', 'in', 'contains', 'matches'] as const;
export type Operator = (typeof OPERATORS)[number];

export const ACTION_TYPES = ['assign', 'add_tags', 'remove_tags', 'set_priority', 'set_status', 'add_note', 'reply'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const CONDITIONS_MAX = 20;
export const ACTIONS_MAX = 20;
export const CONDITION_VALUES_MAX = 100;
export const CONDITION_TEXT_MAX = 1000;

export interface Condition {
  field: ConditionField;
  operator: Operator;
  /** A list for `in`; a string, or null (the field is empty) for the others. */
  value: string | string[] | null;
}

export type Action =
  | { type: 'assign'; member_id: string }
  | { type: 'add_tags'; tags: string[] }
  | { type: 'remove_tags'; tags: string[] }
  | { type: 'set_priority'; priority: Priority }
  | { type: 'set_status'; status: ConversationStatus }
  | { type: 'add_note'; body: string }
  | { type: 'reply'; saved_reply_id: string };

/** The fields whose values are one of a fixed list; the ids, checked against the workspace; free text. */
const ENUM_VALUES: Partial<Record<ConditionField, readonly string[]>> = {
  type: CONVERSATION_TYPES, source: CONVERSATION_SOURCES, status: CONVERSATION_STATUSES, priority: PRIORITIES,
};
const ID_FIELDS: readonly ConditionField[] = ['product_id', 'assignee_id'];
/** `contains` and `matches` read text: not the enums nor the ids. */
const TEXT_OPERATORS: readonly Operator[] = ['contains', 'matches'];

const ACTION_PARAMETER: Record<ActionType, string> = {
  assign: 'member_id', add_tags: 'tags', remove_tags: 'tags', set_priority: 'priority', set_status: 'status', add_note: 'body', reply: 'saved_reply_id',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = (values: readonly string[]) => `must be one of: ${values.join(', ')}`;

export interface AutomationChecksDeps {
  products: Pick<ProductRepository, 'findById'>;
  members: Pick<MemberRepository, 'findById'>;
  savedReplies: Pick<SavedReplyRepository, 'findById'>;
}

/** Collects the problems of one list, each under its place's name. */
class Problems {
  readonly fields: FieldErrors = Object.create(null);
  add(field: string, message: string): void {
    this.fields[field] ??= message;
  }
  unknownKeys(item: Record<string, unknown>, known: readonly string[], place: string): void {
    for (const key of Object.keys(item)) if (!known.includes(key)) this.add(`${place}.${key}`, 'unknown field');
  }
  throwAny(): void {
    const names = Object.keys(this.fields);
    if (names.length > 0) throw new AppError('validation_error', names.map((name) => `${name}: ${this.fields[name]}`).join('; '), { fields: this.fields });
  }
}

export function createAutomationChecks({ products, members, savedReplies }: AutomationChecksDeps) {
  /** Whether `id` names a record of the workspace through `find`. */
  const exists = async (find: (workspaceId: string, id: string) => Promise<unknown>, workspaceId: string, text: string) => {
    const id = parseUuid(text);
    return id !== null && (await find(workspaceId, id)) !== undefined;
  };
  const referenceOf: Partial<Record<ConditionField, (workspaceId: string, id: string) => Promise<boolean>>> = {
    product_id: (workspaceId, id) => exists(products.findById, workspaceId, id),
    assignee_id: (workspaceId, id) => exists(members.findById, workspaceId, id),
  };

  /** One value of a condition (an `in` list's item too): its checked form, or a problem recorded. */
  async function checkValue(workspaceId: string, field: ConditionField, operator: Operator, value: unknown, place: string, problems: Problems): Promise<string | null> {
    if (typeof value !== 'string') {
      problems.add(place, 'must be a string');
      return null;
    }
    if ([...value].length > CONDITION_TEXT_MAX) problems.add(place, `must be at most ${CONDITION_TEXT_MAX} characters`);
    else if (operator === 'matches') {
      const problem = patternProblem(value);
      if (problem) problems.add(place, problem);
    } else if (ENUM_VALUES[field] && !ENUM_VALUES[field].includes(value)) problems.add(place, oneOf(ENUM_VALUES[field]));
    else if (referenceOf[field] && !(await referenceOf[field](workspaceId, value))) {
      problems.add(place, field === 'product_id' ? 'is not a product of this workspace' : 'is not a member of this workspace');
    }
    return ID_FIELDS.includes(field) ? value.toLowerCase() : value;
  }

  async function checkCondition(workspaceId: string, item: unknown, place: string, problems: Problems): Promise<Condition | null> {
    if (!isRecord(item)) {
      problems.add(place, 'must be an object { field, operator, value }');
      return null;
    }
    problems.unknownKeys(item, ['field', 'operator', 'value'], place);
    const { field, operator, value } = item as { field: unknown; operator: unknown; value: unknown };
    const fieldOk = CONDITION_FIELDS.includes(field as ConditionField);
    const operatorOk = OPERATORS.includes(operator as Operator);
    if (!fieldOk) problems.add(`${place}.field`, oneOf(CONDITION_FIELDS));
    if (!operatorOk) problems.add(`${place}.operator`, oneOf(OPERATORS));
    if (!fieldOk || !operatorOk) return null;
    const [f, op] = [field as ConditionField, operator as Operator];
    if (TEXT_OPERATORS.includes(op) && (ENUM_VALUES[f] || ID_FIELDS.includes(f))) {
      problems.add(`${place}.operator`, `${op} reads text; ${f} takes equals, not_equals or in`);
      return null;
    }
    if (!('value' in item)) {
      problems.add(`${place}.value`, 'is required');
      return null;
    }
    if (op === 'in') {
      if (!Array.isArray(value) || value.length === 0 || value.length > CONDITION_VALUES_MAX) {
        problems.add(`${place}.value`, `must be a list of 1–${CONDITION_VALUES_MAX} values`);
        return null;
      }
      const values = await Promise.all(value.map((one, index) => checkValue(workspaceId, f, op, one, `${place}.value[${index}]`, problems)));
      return { field: f, operator: op, value: [...new Set(values.filter((one): one is string => one !== null))] };
    }
    // equals / not_equals with null: the field is empty (no assignee, no summary, no tags).
    if (value === null && (op === 'equals' || op === 'not_equals')) return { field: f, operator: op, value: null };
    const checked = await checkValue(workspaceId, f, op, value, `${place}.value`, problems);
    return checked === null ? null : { field: f, operator: op, value: checked };
  }

  async function checkAction(workspaceId: string, item: unknown, place: string, problems: Problems): Promise<Action | null> {
    if (!isRecord(item)) {
      problems.add(place, 'must be an object { type, …parameters }');
      return null;
    }
    const type = item.type as ActionType;
    if (!ACTION_TYPES.includes(type)) {
      problems.add(`${place}.type`, oneOf(ACTION_TYPES));
      return null;
    }
    const parameter = ACTION_PARAMETER[type];
    problems.unknownKeys(item, ['type', parameter], place);
    const value = item[parameter];
    const at = `${place}.${parameter}`;
    if (value === undefined) {
      problems.add(at, 'is required');
      return null;
    }
    const fail = (message: string) => {
      problems.add(at, message);
      return null;
    };
    switch (type) {
      case 'assign':
        if (value === ROUND_ROBIN) return { type, member_id: ROUND_ROBIN };
        if (typeof value !== 'string' || !(await exists(members.findById, workspaceId, value))) return fail('is not a member of this workspace');
        return { type, member_id: value.toLowerCase() };
      case 'add_tags':
      case 'remove_tags':
        if (!Array.isArray(value) || value.length === 0 || value.length > TAGS_MAX || !value.every((tag) => typeof tag === 'string')) {
          return fail(`must be a list of 1–${TAGS_MAX} tags`);
        }
        try {
          return { type, tags: normalizeTags(value as string[], at) };
        } catch (error) {
          return fail((error as AppError).fields?.[at] ?? 'has an invalid tag');
        }
      case 'set_priority':
        return PRIORITIES.includes(value as Priority) ? { type, priority: value as Priority } : fail(oneOf(PRIORITIES));
      case 'set_status':
        return CONVERSATION_STATUSES.includes(value as ConversationStatus) ? { type, status: value as ConversationStatus } : fail(oneOf(CONVERSATION_STATUSES));
      case 'add_note':
        if (typeof value !== 'string' || value.trim() === '') return fail('must be a text that is not blank');
        return [...value].length > MESSAGE_BODY_MAX ? fail(`must be at most ${MESSAGE_BODY_MAX} characters`) : { type, body: value };
      case 'reply':
        if (typeof value !== 'string' || !(await exists(savedReplies.findById, workspaceId, value))) return fail('is not a saved reply of this workspace');
        return { type, saved_reply_id: value.toLowerCase() };
    }
  }

  /** Checks every item of a list, reporting each problem by place; the checked list, or a validation_error. */
  async function checkList<T>(
    input: readonly unknown[], name: string, max: number, min: number,
    check: (item: unknown, place: string, problems: Problems) => Promise<T | null>,
  ): Promise<T[]> {
    const problems = new Problems();
    if (input.length > max) problems.add(name, `must hold at most ${max} items`);
    if (input.length < min) problems.add(name, `must hold at least ${min} item`);
    problems.throwAny();
    const checked = await Promise.all(input.map((item, index) => check(item, `${name}[${index}]`, problems)));
    problems.throwAny();
    return checked as T[];
  }

  return {
    conditions: (workspaceId: string, input: readonly unknown[]): Promise<Condition[]> =>
      checkList(input, 'conditions', CONDITIONS_MAX, 0, (item, place, problems) => checkCondition(workspaceId, item, place, problems)),

    actions: (workspaceId: string, input: readonly unknown[]): Promise<Action[]> =>
      checkList(input, 'actions', ACTIONS_MAX, 1, (item, place, problems) => checkAction(workspaceId, item, place, problems)),
  };
}

export type AutomationChecks = ReturnType<typeof createAutomationChecks>;
