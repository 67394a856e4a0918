// [ext] Automation rules and macros (docs/automation.md). Bodies take conditions and actions as
// objects checked item by item by the service, so that each problem is named by its place
// (`conditions[2].value`, `actions[0].member_id`); the shapes they must have are the named
// `AutomationCondition` and `AutomationAction`, which every answer carries.
import { Type, type TSchema } from '@sinclair/typebox';
import {
  ACTION_TYPES, ACTIONS_MAX, CONDITION_FIELDS, CONDITION_TEXT_MAX, CONDITION_VALUES_MAX, CONDITIONS_MAX, OPERATORS, RULE_EVENTS,
} from '../../domain/automation/automation-vocabulary.js';
import { RULE_NAME_MAX } from '../../domain/automation/automation-rule.service.js';
import { MACRO_NAME_MAX } from '../../domain/automation/macro.service.js';
import { PATTERN_MAX } from '../../domain/automation/regex-safety.js';
import { CONVERSATION_STATUSES, PRIORITIES } from '../../domain/shared/enums.js';
import { Nullable, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';

export const AutomationCondition = Type.Object(
  {
    field: StringEnum(CONDITION_FIELDS, { description: 'What of the conversation it reads; `message.body` is the contact\'s message the event is about (else their latest)' }),
    operator: StringEnum(OPERATORS, {
      description: '`contains` and `equals` compare text without case or accents; on `tags`, `equals` means "has the tag" and `contains` "has a tag containing"; ' +
        '`matches` is a regular expression (case-insensitive), refused when it may backtrack catastrophically, and run with a time limit',
    }),
    value: Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()], {
      description: `A list of 1–${CONDITION_VALUES_MAX} for \`in\`; otherwise a string (at most ${CONDITION_TEXT_MAX} characters, a pattern ${PATTERN_MAX}), or null with equals/not_equals: the field is empty`,
    }),
  },
  { $id: 'AutomationCondition', additionalProperties: false, description: '[ext] One condition of a rule: all must hold', examples: [{ field: 'message.body', operator: 'contains', value: 'refund' }] },
);

const action = (type: string, parameters: Record<string, TSchema>) =>
  Type.Object({ type: Type.Literal(type), ...parameters }, { additionalProperties: false });

export const AutomationAction = Type.Union(
  [
    action('assign', {
      member_id: Type.Union([Uuid('A member of this workspace'), Type.Literal('round_robin')], {
        description: 'A member of this workspace, or `round_robin`: the next free member of the product\'s assignment (docs: "Assignment")',
      }),
    }),
    action('add_tags', { tags: Type.Array(Type.String()) }),
    action('remove_tags', { tags: Type.Array(Type.String()) }),
    action('set_priority', { priority: StringEnum(PRIORITIES) }),
    action('set_status', { status: StringEnum(CONVERSATION_STATUSES) }),
    action('add_note', { body: Type.String({ description: 'An internal note, posted as the rule (its name) or the member running the macro' }) }),
    action('reply', { saved_reply_id: Uuid('A saved reply of this workspace, its placeholders filled') }),
  ],
  { $id: 'AutomationAction', description: `[ext] One action of a rule or macro: \`type\` (${ACTION_TYPES.join(', ')}) and its parameter`, examples: [{ type: 'add_tags', tags: ['billing'] }] },
);

const conditionsInput = Type.Array(Type.Object({}, { additionalProperties: true, description: 'An AutomationCondition: { field, operator, value }' }), {
  maxItems: CONDITIONS_MAX, description: `0–${CONDITIONS_MAX} conditions, all of which must hold (AutomationCondition); a problem is named by its place: \`conditions[2].value\``,
});
const actionsInput = Type.Array(Type.Object({}, { additionalProperties: true, description: 'An AutomationAction: { type, …its parameter }' }), {
  maxItems: ACTIONS_MAX, description: `1–${ACTIONS_MAX} actions, run in order (AutomationAction); a problem is named by its place: \`actions[0].member_id\``,
});
const RuleName = TrimmedString({ minLength: 1, maxLength: RULE_NAME_MAX, description: `1–${RULE_NAME_MAX} characters after trimming; a rule's notes and replies are sent under it` });
const MacroName = TrimmedString({ minLength: 1, maxLength: MACRO_NAME_MAX, description: `1–${MACRO_NAME_MAX} characters after trimming` });

const EXAMPLE_RULE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8101', name: 'Refunds to billing', active: true, position: 1, event: 'message.created',
  conditions: [{ field: 'message.body', operator: 'contains', value: 'refund' }],
  actions: [{ type: 'add_tags', tags: ['billing'] }, { type: 'set_priority', priority: 'high' }],
  runs: 12, last_run_at: '2026-11-21T11:02:00.000Z', created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};

export const AutomationRule = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    active: Type.Boolean(),
    position: Type.Integer({ description: '1 … the number of rules: the order they run in' }),
    event: StringEnum(RULE_EVENTS),
    conditions: Type.Array(Ref(AutomationCondition)),
    actions: Type.Array(Ref(AutomationAction)),
    runs: Type.Integer({ description: 'How many times its conditions held and its actions ran' }),
    last_run_at: Nullable(Timestamp('When its actions last ran')),
    created_at: Timestamp(),
    updated_at: Timestamp('Changes on every effective change (not when it runs, nor when another rule\'s move shifts it)'),
  },
  {
    $id: 'AutomationRule', additionalProperties: false, examples: [EXAMPLE_RULE],
    description: '[ext] An automation rule: after an event of `event` commits, if every condition holds, its actions run (once per event; never on a rule\'s own changes)',
  },
);

const ruleInputs = {
  name: RuleName,
  active: Type.Optional(Type.Boolean({ description: 'Inactive rules never run; default true' })),
  position: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Its place in the order (1 first); default the end; past the end means the end' })),
  event: StringEnum(RULE_EVENTS, { description: '`message.created` runs on contacts\' messages only' }),
  conditions: Type.Optional(conditionsInput),
  actions: actionsInput,
};

export const CreateAutomationRuleBody = Type.Object(ruleInputs, {
  additionalProperties: false, examples: [{ name: EXAMPLE_RULE.name, event: EXAMPLE_RULE.event, conditions: EXAMPLE_RULE.conditions, actions: EXAMPLE_RULE.actions }],
});

export const UpdateAutomationRuleBody = Type.Object(
  { ...ruleInputs, name: Type.Optional(RuleName), event: Type.Optional(ruleInputs.event), actions: Type.Optional(actionsInput) },
  { additionalProperties: false, examples: [{ active: false }, { position: 1 }] },
);

const EXAMPLE_MACRO = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8102', name: 'Close as duplicate',
  actions: [{ type: 'add_tags', tags: ['duplicate'] }, { type: 'set_status', status: 'resolved' }],
  created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};

export const Macro = Type.Object(
  { id: Uuid(), name: Type.String(), actions: Type.Array(Ref(AutomationAction)), created_at: Timestamp(), updated_at: Timestamp('Changes on every effective change') },
  { $id: 'Macro', additionalProperties: false, examples: [EXAMPLE_MACRO], description: '[ext] A saved list of actions an agent runs on a conversation in one go' },
);

export const CreateMacroBody = Type.Object({ name: MacroName, actions: actionsInput }, {
  additionalProperties: false, examples: [{ name: EXAMPLE_MACRO.name, actions: EXAMPLE_MACRO.actions }],
});

export const UpdateMacroBody = Type.Object({ name: Type.Optional(MacroName), actions: Type.Optional(actionsInput) }, {
  additionalProperties: false, examples: [{ name: 'Close as a duplicate' }],
});
