// A rule's form (new, or an existing one loaded by id): its name, whether it is active, the event
// it listens to, its conditions and its actions, all built from selects and pickers; the server's
// validation shown under the field or in the row it names.
import { useRef, useState } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { Checkbox, Select, TextField } from '../../ui/form.js';
import { entries } from '../../ui/labels.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { ActionRows } from './action-rows.js';
import { ConditionRows } from './condition-rows.js';
import { EditorFrame, Editing } from './editor-frame.js';
import { actionDraft, actionOf, conditionDraft, conditionOf, EVENTS, newAction, type Rule, type RuleEvent } from './vocabulary.js';

export const RULES_PATH = '/settings/automation';

const loadRule = async (id: string) => (await ok(api.GET('/api/v1/automation-rules/{id}', { params: { path: { id } } }))).data;

/** The form for the rule `id`, or for a new one when `id` is null. */
export function RuleEditor({ id }: { id: string | null }) {
  return <Editing id={id} load={loadRule} form={(rule) => <RuleForm key={id ?? 'new'} rule={rule} />} />;
}

function RuleForm({ rule }: { rule: Rule | null }) {
  const [name, setName] = useState(rule?.name ?? '');
  const [active, setActive] = useState(rule?.active ?? true);
  const [event, setEvent] = useState<RuleEvent>(rule?.event ?? 'conversation.created');
  const [conditions, setConditions] = useState(() => (rule?.conditions ?? []).map(conditionDraft));
  const [actions, setActions] = useState(() => (rule ? rule.actions.map(actionDraft) : [newAction()]));
  const action = useAction();
  const { fields } = action;
  const sent = useRef({ conditions: [] as number[], actions: [] as number[] });

  const save = async () => {
    sent.current = { conditions: conditions.map((row) => row.key), actions: actions.map((row) => row.key) };
    const body = { name, active, event, conditions: conditions.map(conditionOf), actions: actions.map(actionOf) };
    if (rule) await ok(api.PATCH('/api/v1/automation-rules/{id}', { params: { path: { id: rule.id } }, body }));
    else await ok(api.POST('/api/v1/automation-rules', { body }));
    announce(rule ? 'Rule saved' : 'Rule created');
  };

  return (
    <EditorFrame noun="rule" editing={rule?.name ?? null} back={RULES_PATH} action={action} save={save}>
      <div class="card card-body stack">
        <TextField label="Name" value={name} error={fields.name} placeholder="Refunds to billing" hint="The rule's notes and replies are sent under this name"
          onInput={(input) => setName(input.currentTarget.value)} />
        <Select label="When" value={event} error={fields.event} options={entries(EVENTS)} onChange={setEvent} />
        <Checkbox label="Active" checked={active} onChange={setActive} hint="Inactive rules never run" />
      </div>
      <div class="card card-body"><ConditionRows rows={conditions} onChange={setConditions} fields={fields} sent={sent.current.conditions} /></div>
      <div class="card card-body"><ActionRows rows={actions} onChange={setActions} fields={fields} sent={sent.current.actions} /></div>
    </EditorFrame>
  );
}
