// What the rule and macro forms share: loading the one being edited (or none, for a new one),
// and the form's frame: its heading and way back, the server's message, the note that marked
// fields stopped the save, and the submit and cancel buttons.
import type { ComponentChildren, VNode } from 'preact';
import { navigate, Link } from '../../router.js';
import { Button, FormError } from '../../ui/form.js';
import { ErrorState, Loading } from '../../ui/page.js';
import type { Action } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

/** Loads the record `id` with `load` (null for a new one) and draws `form` with it. */
export function Editing<T>({ id, load, form }: { id: string | null; load: (id: string) => Promise<T>; form: (record: T | null) => VNode }) {
  const record = useResource(async () => (id ? load(id) : null), [id]);
  if (record.error) return <ErrorState error={record.error} retry={record.reload} />;
  if (record.data === undefined) return <Loading />;
  return form(record.data);
}

interface FrameProps {
  /** "rule" or "macro". */
  noun: string;
  /** The name of the one edited; null for a new one. */
  editing: string | null;
  /** Where the list is (and where a save or cancel goes). */
  back: string;
  action: Action;
  /** Saves; the frame goes back to the list once it did. */
  save: () => Promise<void>;
  children: ComponentChildren;
}

export function EditorFrame({ noun, editing, back, action, save, children }: FrameProps) {
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await save();
      navigate(back);
    });
  };
  const headingId = `${noun}-form-heading`;
  return (
    <form class="stack automation-form" onSubmit={submit} noValidate aria-labelledby={headingId}>
      <div class="row">
        <h2 id={headingId}>{editing === null ? `New ${noun}` : `Edit ${noun}: ${editing}`}</h2>
        <span class="spacer" />
        <Link href={back}>All {noun}s</Link>
      </div>
      <FormError message={action.message} />
      {children}
      {Object.keys(action.fields).length > 0 && <p class="field-error" role="alert">The {noun} was not saved: see the marked fields.</p>}
      <div class="row">
        <Button type="submit" variant="primary" busy={action.busy}>{editing === null ? `Create ${noun}` : `Save ${noun}`}</Button>
        <Button onClick={() => navigate(back)}>Cancel</Button>
      </div>
    </form>
  );
}
