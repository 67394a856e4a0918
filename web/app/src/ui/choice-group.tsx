// A set of checkboxes under one legend, for picking several of a few known values (an SLA
// policy's priorities, types, sources, products). What is picked keeps the options' order.
import { Checkbox } from './form.js';

interface Props<V extends string> {
  legend: string;
  options: [V, string][];
  value: readonly V[];
  onChange: (value: V[]) => void;
  hint?: string;
  error?: string;
}

export function ChoiceGroup<V extends string>({ legend, options, value, onChange, hint, error }: Props<V>) {
  const toggle = (option: V, on: boolean) => onChange(options.map(([v]) => v).filter((v) => (v === option ? on : value.includes(v))));
  return (
    <fieldset class="fieldset">
      <legend class="field-label">{legend}</legend>
      {hint && !error && <p class="field-hint">{hint}</p>}
      <div class="choice-group">
        {options.map(([option, label]) => <Checkbox key={option} label={label} checked={value.includes(option)} onChange={(on) => toggle(option, on)} />)}
      </div>
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}
