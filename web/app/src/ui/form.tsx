// Form controls with their label, hint and error tied to them (for screen readers and for tests
// that find controls by name).
import type { ButtonHTMLAttributes, ComponentChildren, TargetedEvent, TargetedKeyboardEvent } from 'preact';
import { useId } from 'preact/hooks';

interface FieldFrame {
  label: string;
  error?: string;
  hint?: ComponentChildren;
  /** Hide the label visually (it still names the control). */
  hideLabel?: boolean;
  class?: string;
}

function Frame({ id, label, error, hint, hideLabel, class: className, children }: FieldFrame & { id: string; children: ComponentChildren }) {
  return (
    <div class={`field ${className ?? ''}`}>
      <label for={id} class={hideLabel ? 'visually-hidden' : 'field-label'}>{label}</label>
      {children}
      {hint && !error && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

const described = (id: string, error?: string, hint?: ComponentChildren) =>
  error ? `${id}-error` : hint ? `${id}-hint` : undefined;

/** What the app sets on its text controls (Preact's own prop types are unions too strict to spread). */
interface TextControl<E extends HTMLElement> {
  value: string;
  onInput?: (event: TargetedEvent<E>) => void;
  onKeyDown?: (event: TargetedKeyboardEvent<E>) => void;
  required?: boolean;
  placeholder?: string;
  maxLength?: number;
  minLength?: number;
  disabled?: boolean;
  readOnly?: boolean;
  autocomplete?: string;
  /** The id of a <datalist> of suggestions. */
  list?: string;
  inputMode?: 'text' | 'numeric';
}

type InputProps = FieldFrame & TextControl<HTMLInputElement> & { type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'date' };

export function TextField({ label, error, hint, hideLabel, class: className, type = 'text', ...input }: InputProps) {
  const id = useId();
  return (
    <Frame {...{ id, label, error, hint, hideLabel, class: className }}>
      {/* `type` is one of the text-like types; Preact's types want a single literal to discriminate on. */}
      <input id={id} type={type as 'text'} class="input" aria-invalid={error ? true : undefined} aria-describedby={described(id, error, hint)} {...input} />
    </Frame>
  );
}

type TextAreaProps = FieldFrame & TextControl<HTMLTextAreaElement> & { rows?: number };

export function TextArea({ label, error, hint, hideLabel, class: className, ...area }: TextAreaProps) {
  const id = useId();
  return (
    <Frame {...{ id, label, error, hint, hideLabel, class: className }}>
      <textarea id={id} class="input" aria-invalid={error ? true : undefined} aria-describedby={described(id, error, hint)} {...area} />
    </Frame>
  );
}

type SelectProps<V extends string> = FieldFrame & {
  value: V;
  options: [V, string][];
  onChange: (value: V) => void;
  disabled?: boolean;
  compact?: boolean;
};

export function Select<V extends string>({ label, error, hint, hideLabel, class: className, value, options, onChange, disabled, compact }: SelectProps<V>) {
  const id = useId();
  return (
    <Frame {...{ id, label, error, hint, hideLabel, class: `${className ?? ''} ${compact ? 'field-compact' : ''}` }}>
      <select
        id={id}
        class="input select"
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, error, hint)}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value as V)}
      >
        {options.map(([optionValue, text]) => <option key={optionValue} value={optionValue}>{text}</option>)}
      </select>
    </Frame>
  );
}

export function Checkbox({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <div class="checkbox">
      <input id={id} type="checkbox" checked={checked} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
      {hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'ghost' | 'danger'; busy?: boolean; small?: boolean };

export function Button({ variant = 'secondary', busy, small, class: className, disabled, children, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      class={`button button-${variant} ${small ? 'button-small' : ''} ${className ?? ''}`}
      disabled={disabled || busy}
      aria-busy={busy ? true : undefined}
      {...props}
    >
      {children}
    </button>
  );
}

/** The form-level error of a failed submit (the fields show their own). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return <div class="alert alert-error" role="alert">{message}</div>;
}
