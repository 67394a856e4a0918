// The pickers the rule and macro rows share: a choice of one (a select over products, members,
// an enum), a choice of several (a group of checkboxes), and tags (the tag editor, which offers the
// workspace's tags).
import { useId } from 'preact/hooks';
import { useSession } from '../../session.js';
import { Select } from '../../ui/form.js';
import { TagEditor } from '../../ui/tag-editor.js';
import type { ValueKind } from './vocabulary.js';

/** The values `kind` is picked from, with their labels (none for tags and text). */
export function useChoices(kind: ValueKind, options?: Record<string, string>): [string, string][] {
  const session = useSession();
  const myId = session.me.member?.id;
  if (kind === 'product') return session.products.map((product) => [product.id, product.name]);
  if (kind === 'member') {
    return session.members.map((member) => [member.id, `${member.display_name ?? 'Unnamed member'}${member.id === myId ? ' (you)' : ''}`]);
  }
  return Object.entries(options ?? {});
}

interface PickOne {
  label: string;
  value: string;
  choices: [string, string][];
  onChange: (value: string) => void;
  error?: string;
  /** The label of the empty choice shown while nothing is picked. */
  placeholder: string;
}

/** One of `choices`; while none is picked, a first empty option says what to pick. */
export function PickOne({ label, value, choices, onChange, error, placeholder }: PickOne) {
  const options: [string, string][] = value === '' || !choices.some(([id]) => id === value) ? [['', placeholder], ...choices] : choices;
  return <Select label={label} value={value} options={options} onChange={onChange} error={error} />;
}

/** Several of `choices`, as a group of checkboxes named by `label`. */
export function PickMany({ label, values, choices, onChange, error }: { label: string; values: string[]; choices: [string, string][]; onChange: (values: string[]) => void; error?: string }) {
  const id = useId();
  return (
    <fieldset class="pick-many" aria-describedby={error ? `${id}-error` : undefined}>
      <legend class="field-label">{label}</legend>
      <div class="pick-many-options">
        {choices.map(([value, text]) => (
          <label key={value} class="pick-many-option">
            <input type="checkbox" checked={values.includes(value)}
              onChange={(event) => onChange(event.currentTarget.checked ? [...values, value] : values.filter((one) => one !== value))} />
            {text}
          </label>
        ))}
      </div>
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </fieldset>
  );
}

/** Tags chosen with the tag editor; nothing is saved until the form is. */
export function PickTags({ label, tags, onChange, error }: { label: string; tags: string[]; onChange: (tags: string[]) => void; error?: string }) {
  return (
    <div class="field">
      <span class="field-label" aria-hidden="true">{label}</span>
      <TagEditor label={label} tags={tags} save={async (next) => onChange(next)} />
      {error && <p class="field-error">{error}</p>}
    </div>
  );
}
