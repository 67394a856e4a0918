// The fields and buttons every issue-creating form shares: the board's "New issue", the inbox's
// deduplicating "Create issue" and a triage draft edited before it is accepted.
import type { ComponentChildren } from 'preact';
import { ApiError, describeError } from '../../api/client.js';
import { Button, FormError, Select, TextArea, TextField } from '../../ui/form.js';
import { PRIORITIES, entries, type Priority } from '../../ui/labels.js';

export interface IssueDraft {
  title: string;
  description: string;
  priority: Priority;
}

interface Props {
  draft: IssueDraft;
  change: (draft: IssueDraft) => void;
  /** The failed submit's error, shown by its fields or, when none explains it, above them. */
  error: unknown;
  busy: boolean;
  descriptionRows: number;
  close: () => void;
  submit: (event: Event) => void;
  /** Fields shown before the title (the board's product choice). */
  children?: ComponentChildren;
  /** The submit button's text, "Create issue" unless given. */
  submitLabel?: string;
}

export function IssueDraftForm({ draft, change, error, busy, descriptionRows, close, submit, children, submitLabel = 'Create issue' }: Props) {
  const fields = error instanceof ApiError ? error.fields : {};
  return (
    <form class="stack" onSubmit={submit} noValidate>
      <FormError message={error && !Object.keys(fields).length ? describeError(error) : null} />
      {children}
      <TextField label="Title" required maxLength={500} value={draft.title} error={fields.title} onInput={(event) => change({ ...draft, title: event.currentTarget.value })} />
      <TextArea label="Description" rows={descriptionRows} value={draft.description} error={fields.description} onInput={(event) => change({ ...draft, description: event.currentTarget.value })} />
      <Select label="Priority" value={draft.priority} options={entries(PRIORITIES)} onChange={(priority) => change({ ...draft, priority })} />
      <div class="dialog-actions">
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={!draft.title.trim()}>{submitLabel}</Button>
      </div>
    </form>
  );
}
