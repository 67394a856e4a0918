// A product's assignment (docs/automation.md, "Assignment"): who gets its new conversations — off,
// round robin over the chosen members in turn, or balanced (the one with the fewest open ones) —
// and how many open conversations each may hold. No member ticked means every member. Saved with
// the product's form, as a whole; the server's errors show under the part they name.
import { useId } from 'preact/hooks';
import type { Schemas } from '../../api/client.js';
import { useSession } from '../../session.js';
import { ChoiceGroup } from '../../ui/choice-group.js';
import { TextField } from '../../ui/form.js';

type Assignment = Schemas['Product']['assignment'];
type Mode = Assignment['mode'];

/** The form's state: capacity as typed, so the server (not the browser) judges a bad one. */
export interface AssignmentDraft {
  mode: Mode;
  capacity: string;
  member_ids: string[];
}

const MODES: { value: Mode; label: string; hint: string }[] = [
  { value: 'off', label: 'Off', hint: 'New conversations wait unassigned until someone takes them (rules and macros may still assign "round robin").' },
  { value: 'round_robin', label: 'Round robin', hint: 'Each new conversation goes to the next online member, in turn.' },
  { value: 'balanced', label: 'Balanced', hint: 'Each new conversation goes to the online member with the fewest open conversations of this product.' },
];

export const assignmentDraft = (assignment: Assignment): AssignmentDraft => ({
  mode: assignment.mode, capacity: assignment.capacity === null ? '' : String(assignment.capacity), member_ids: assignment.member_ids,
});

/** The body's `assignment`: an empty capacity is no limit; anything but digits goes as typed, for the server to name. */
export function assignmentBody(draft: AssignmentDraft): Assignment {
  const capacity = draft.capacity.trim();
  const parsed = capacity === '' ? null : /^\d+$/.test(capacity) ? Number(capacity) : capacity;
  return { mode: draft.mode, capacity: parsed as number | null, member_ids: draft.member_ids };
}

/** The first message the server gave for `prefix` or any of its items (`assignment.member_ids[2]`). */
const errorUnder = (fields: Record<string, string>, prefix: string) =>
  Object.entries(fields).find(([field]) => field === prefix || field.startsWith(`${prefix}[`) || field.startsWith(`${prefix}.`))?.[1];

export function AssignmentSetting({ value, onChange, fields }: { value: AssignmentDraft; onChange: (draft: AssignmentDraft) => void; fields: Record<string, string> }) {
  const { members } = useSession();
  const name = useId();
  const set = (change: Partial<AssignmentDraft>) => onChange({ ...value, ...change });
  const wholeError = fields.assignment;
  return (
    <section class="card card-body stack" aria-labelledby={`${name}-heading`}>
      <h2 id={`${name}-heading`}>Assignment</h2>
      <fieldset class="fieldset">
        <legend class="field-label">Assign new conversations</legend>
        {MODES.map((mode) => (
          <div key={mode.value} class="checkbox">
            <input id={`${name}-${mode.value}`} type="radio" name={`${name}-mode`} value={mode.value} checked={value.mode === mode.value}
              aria-describedby={`${name}-${mode.value}-hint`} onChange={() => set({ mode: mode.value })} />
            <label for={`${name}-${mode.value}`}>{mode.label}</label>
            <p class="field-hint" id={`${name}-${mode.value}-hint`}>{mode.hint}</p>
          </div>
        ))}
        {fields['assignment.mode'] && <p class="field-error">{fields['assignment.mode']}</p>}
      </fieldset>
      <TextField label="Capacity" inputMode="numeric" value={value.capacity} error={fields['assignment.capacity']} placeholder="No limit"
        hint="Open conversations of this product a member may hold before assignment passes them by; empty: no limit."
        onInput={(event) => set({ capacity: event.currentTarget.value })} />
      <ChoiceGroup legend="Members" options={members.map((member) => [member.id, member.display_name ?? member.id])}
        value={value.member_ids} onChange={(member_ids) => set({ member_ids })} error={errorUnder(fields, 'assignment.member_ids')}
        hint="Who takes turns, in this order. None ticked: every member of the workspace." />
      {wholeError && <p class="field-error">{wholeError}</p>}
    </section>
  );
}
