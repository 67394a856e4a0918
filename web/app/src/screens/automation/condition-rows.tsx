// A rule's conditions, built row by row (all must hold): a field, an operator valid for it, and a
// value input suited to it (a select for products, members and the enums, checkboxes for "is any
// of", the tag editor for tags, text otherwise); the server's errors shown in the row they name.
import { Button, Select, TextArea, TextField } from '../../ui/form.js';
import { AutomationRow, type ListProps } from './action-rows.js';
import { PickMany, PickOne, PickTags, useChoices } from './pickers.js';
import { FIELDS, newCondition, operatorsFor, rowErrors, type ConditionDraft, type ConditionField } from './vocabulary.js';

export const CONDITIONS_MAX = 20;

export function ConditionRows({ rows, onChange, fields, sent }: ListProps<ConditionDraft>) {
  const change = (index: number, next: ConditionDraft) => onChange(rows.map((row, i) => (i === index ? next : row)));
  return (
    <section class="automation-rows" aria-labelledby="conditions-heading">
      <h3 id="conditions-heading">If all of these hold</h3>
      {fields.conditions && <p class="field-error" role="alert">{fields.conditions}</p>}
      {rows.length === 0 && <p class="muted">No conditions: the rule runs on every such event.</p>}
      <ol class="plain-list automation-list">
        {rows.map((row, index) => (
          <ConditionRow key={row.key} row={row} index={index} errors={rowErrors(fields, 'conditions', sent, row.key)}
            change={(next) => change(index, next)} remove={() => onChange(rows.filter((_, i) => i !== index))} />
        ))}
      </ol>
      {rows.length < CONDITIONS_MAX && <div><Button small onClick={() => onChange([...rows, newCondition()])}>Add a condition</Button></div>}
    </section>
  );
}

interface RowProps {
  row: ConditionDraft;
  index: number;
  errors: Record<string, string>;
  change: (next: ConditionDraft) => void;
  remove: () => void;
}

function ConditionRow({ row, index, errors, change, remove }: RowProps) {
  const name = `Condition ${index + 1}`;
  const operators = operatorsFor(row.field);
  const others = Object.entries(errors).filter(([part]) => !['field', 'operator', 'value'].includes(part)).map(([, message]) => message);
  // A new field starts afresh: its first operator and, for a list, its first value.
  const setField = (field: ConditionField) => change({ ...newCondition(field), key: row.key });
  return (
    <AutomationRow legend={name} error={others.join('; ')} tools={<Button small variant="danger" onClick={remove}>Remove<span class="visually-hidden"> {name}</span></Button>}>
      <Select label="Field" value={row.field} error={errors.field} options={Object.entries(FIELDS).map(([field, spec]) => [field as ConditionField, spec.label])} onChange={setField} />
      <Select label="Operator" value={row.operator} error={errors.operator} options={operators} onChange={(operator) => change({ ...row, operator })} />
      <ConditionValue row={row} error={errors.value} change={change} />
    </AutomationRow>
  );
}

function ConditionValue({ row, error, change }: { row: ConditionDraft; error?: string; change: (next: ConditionDraft) => void }) {
  const spec = FIELDS[row.field];
  const choices = useChoices(spec.kind, spec.options);
  const setValue = (value: string) => change({ ...row, value });
  const setValues = (values: string[]) => change({ ...row, values });
  if (row.operator === 'empty' || row.operator === 'not_empty') return null;
  if (row.operator === 'matches') {
    return <TextField label="Pattern" value={row.value} error={error} hint="A regular expression, without case" onInput={(event) => setValue(event.currentTarget.value)} />;
  }
  if (spec.kind === 'tag') {
    if (row.operator === 'in') return <PickTags label="Tags" tags={row.values} error={error} onChange={setValues} />;
    return <TextField label={row.operator === 'contains' ? 'Text' : 'Tag'} value={row.value} error={error} onInput={(event) => setValue(event.currentTarget.value)} />;
  }
  if (spec.kind === 'text') {
    if (row.operator === 'in') return <TextArea label="Values" rows={3} value={row.value} error={error} hint="One per line" onInput={(event) => setValue(event.currentTarget.value)} />;
    return <TextField label={row.operator === 'contains' ? 'Text' : 'Value'} value={row.value} error={error} onInput={(event) => setValue(event.currentTarget.value)} />;
  }
  if (row.operator === 'in') return <PickMany label="Values" values={row.values} choices={choices} error={error} onChange={setValues} />;
  return <PickOne label="Value" value={row.value} choices={choices} placeholder="Pick one" error={error} onChange={setValue} />;
}
