// An SLA policy's form: its name and whether it is on, the conversations it applies to (products,
// priorities, types, sources picked from their lists; tags typed, any of them), its targets typed
// as durations ("1h 30m"; empty: no such target) and the calendar they are counted in.
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { useSession } from '../../session.js';
import { ChoiceGroup } from '../../ui/choice-group.js';
import { Dialog } from '../../ui/dialog.js';
import { formatDuration, parseDuration } from '../../ui/durations.js';
import { Button, Checkbox, FormError, Select, TextField } from '../../ui/form.js';
import { CONVERSATION_TYPES, PRIORITIES, entries } from '../../ui/labels.js';
import { TagEditor } from '../../ui/tag-editor.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';

export type SlaPolicy = Schemas['SlaPolicy'];
type Conditions = SlaPolicy['conditions'];
type Source = NonNullable<Conditions['sources']>[number];
type TargetField = 'first_response_seconds' | 'next_response_seconds' | 'resolution_seconds';

export const SOURCES: Record<Source, string> = { chat: 'Chat', form: 'Form', email: 'Email' };
export const TARGET_FIELDS: [TargetField, string][] = [
  ['first_response_seconds', 'First response'], ['next_response_seconds', 'Next response'], ['resolution_seconds', 'Resolution'],
];

interface Props {
  policy: SlaPolicy | null;
  calendars: Schemas['Calendar'][];
  close: () => void;
  saved: () => void;
}

export function SlaPolicyDialog({ policy, calendars, close, saved }: Props) {
  const { products } = useSession();
  const [name, setName] = useState(policy?.name ?? '');
  const [active, setActive] = useState(policy?.active ?? true);
  const [conditions, setConditions] = useState<Required<Conditions>>({
    product_ids: [], priorities: [], types: [], sources: [], tags: [], ...policy?.conditions,
  });
  const [targets, setTargets] = useState<Record<TargetField, string>>({
    first_response_seconds: formatDuration(policy?.first_response_seconds ?? null),
    next_response_seconds: formatDuration(policy?.next_response_seconds ?? null),
    resolution_seconds: formatDuration(policy?.resolution_seconds ?? null),
  });
  const [calendarId, setCalendarId] = useState(policy?.calendar_id ?? '');
  // Durations that do not read as one are caught here, before a request.
  const [unreadable, setUnreadable] = useState<Partial<Record<TargetField, string>>>({});
  const action = useAction();
  const fields: Record<string, string | undefined> = { ...action.fields, ...unreadable };

  const pick = <K extends keyof Conditions>(key: K) => (value: Required<Conditions>[K]) => setConditions((current) => ({ ...current, [key]: value }));
  const submit = (event: Event) => {
    event.preventDefault();
    const seconds = Object.fromEntries(TARGET_FIELDS.map(([field]) => [field, parseDuration(targets[field])])) as Record<TargetField, number | null | Error>;
    const problems = Object.fromEntries(Object.entries(seconds).flatMap(([field, value]) => (value instanceof Error ? [[field, value.message]] : [])));
    setUnreadable(problems);
    if (Object.keys(problems).length > 0) return;
    void action.run(async () => {
      const body = { name, active, conditions, calendar_id: calendarId || null, ...(seconds as Record<TargetField, number | null>) };
      if (policy) await ok(api.PATCH('/api/v1/sla-policies/{id}', { params: { path: { id: policy.id } }, body }));
      else await ok(api.POST('/api/v1/sla-policies', { body }));
      announce(policy ? 'SLA policy saved' : 'SLA policy added');
      saved();
      close();
    });
  };

  return (
    <Dialog title={policy ? 'Edit SLA policy' : 'New SLA policy'} close={close} wide>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Name" value={name} error={fields.name} placeholder="Urgent tickets" onInput={(e) => setName(e.currentTarget.value)} />
        <Checkbox label="Active" checked={active} onChange={setActive} hint="An inactive policy keeps its place but applies to nothing." />
        <h3>Applies to</h3>
        <p class="field-hint">Conversations that match every group with something picked; nothing picked anywhere: every conversation.</p>
        {products.length > 0 && (
          <ChoiceGroup legend="Products" options={products.map((p): [string, string] => [p.id, p.name])} value={conditions.product_ids} onChange={pick('product_ids')} error={fields['conditions.product_ids']} />
        )}
        <ChoiceGroup legend="Priorities" options={entries(PRIORITIES)} value={conditions.priorities} onChange={pick('priorities')} error={fields['conditions.priorities']} />
        <ChoiceGroup legend="Types" options={entries(CONVERSATION_TYPES)} value={conditions.types} onChange={pick('types')} error={fields['conditions.types']} />
        <ChoiceGroup legend="Sources" options={entries(SOURCES)} value={conditions.sources} onChange={pick('sources')} error={fields['conditions.sources']} />
        <div class="field">
          <span class="field-label" aria-hidden="true">Tags (any of them)</span>
          <TagEditor label="Tags (any of them)" tags={conditions.tags} save={async (tags) => pick('tags')(tags)} />
          {fields['conditions.tags'] && <p class="field-error">{fields['conditions.tags']}</p>}
        </div>
        <h3>Targets</h3>
        <div class="settings-grid">
          {TARGET_FIELDS.map(([field, label]) => (
            <TextField key={field} label={label} value={targets[field]} error={fields[field]} placeholder="1h 30m" hint="e.g. 1h 30m or 2d; empty: none"
              onInput={(e) => setTargets((current) => ({ ...current, [field]: e.currentTarget.value }))} />
          ))}
        </div>
        <Select label="Calendar" value={calendarId} error={fields.calendar_id} hint="The targets count only the calendar's open time."
          options={[['', 'Round the clock'], ...calendars.map((c): [string, string] => [c.id, c.name])]} onChange={setCalendarId} />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy}>{policy ? 'Save' : 'Add SLA policy'}</Button>
        </div>
      </form>
    </Dialog>
  );
}
