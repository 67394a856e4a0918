// The fields and buttons every issue-creating form shares: the board's "New issue", the inbox's
// deduplicating "Create issue" and a triage draft edited before it is accepted.
import type { ComponentChildren } from 'preact';
import { Button, FormError, Select, TextArea, TextField } from '../../ui/form.js';
import { PRIORITIES, entries, type Priority } from '../../ui/labels.js';
import type { Action } from '../../ui/use-action.js';

export interface IssueDraft {
  title: string;
  description: string;
  priority: Priority;
}

interface Props {
  draft: IssueDraft;
  change: (draft: IssueDraft) => void;
  /** The submit's state; a failure shows by its fields or, when none explains it, above them. */
  action: Action;
  descriptionRows: number;
  close: () => void;
  /** Sends the draft (run through `action`). */
  submit: () => Promise<void>;
  /** Fields shown before the title (the board's product choice). */
  children?: ComponentChildren;
  /** The submit button's text, "Create issue" unless given. */
  submitLabel?: string;
}

export function IssueDraftForm({ draft, change, action, descriptionRows, close, submit, children, submitLabel = 'Create issue' }: Props) {
  const { fields } = action;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void action.run(submit);
  };
  return (
    <form class="stack" onSubmit={onSubmit} noValidate>
      <FormError message={action.message} />
      {children}
      <TextField label="Title" required maxLength={500} value={draft.title} error={fields.title} onInput={(event) => change({ ...draft, title: event.currentTarget.value })} />
      <TextArea label="Description" rows={descriptionRows} value={draft.description} error={fields.description} onInput={(event) => change({ ...draft, description: event.currentTarget.value })} />
      <Select label="Priority" value={draft.priority} options={entries(PRIORITIES)} onChange={(priority) => change({ ...draft, priority })} />
      <div class="dialog-actions">
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="primary" busy={action.busy} disabled={!draft.title.trim()}>{submitLabel}</Button>
      </div>
    </form>
  );
}
