// Tags on a conversation or an issue: each shown with a remove button, and a field that adds one
// on Enter or comma (the names the workspace already uses are offered as suggestions). Every change
// saves the whole list; the server trims, drops duplicates (without case) and keeps the order.
import { useId, useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { useResource } from '../use-resource.js';

const MAX_TAG_LENGTH = 50;

export function TagEditor({ label, tags, save }: { label: string; tags: string[]; save: (tags: string[]) => Promise<void> }) {
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const known = useResource(() => ok(api.GET('/api/v1/tags')).then((answer) => answer.data.map((tag) => tag.name)), []);

  const change = async (next: string[]) => {
    setBusy(true);
    try {
      await save(next);
    } finally {
      setBusy(false);
    }
  };
  const add = async () => {
    const name = draft.trim();
    if (!name) return;
    setDraft('');
    if (!tags.some((tag) => tag.toLowerCase() === name.toLowerCase())) await change([...tags, name]);
  };

  return (
    <div class="tag-editor" role="group" aria-label={label}>
      {tags.map((tag) => (
        <span key={tag} class="tag">
          {tag}
          <button type="button" class="tag-remove" disabled={busy} onClick={() => void change(tags.filter((t) => t !== tag))}>
            <span aria-hidden="true">×</span><span class="visually-hidden">Remove tag {tag}</span>
          </button>
        </span>
      ))}
      <input
        class="tag-input"
        aria-label="Add a tag"
        placeholder="Add tag"
        list={listId}
        maxLength={MAX_TAG_LENGTH}
        value={draft}
        disabled={busy}
        onInput={(event) => setDraft(event.currentTarget.value.replace(',', ''))}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ',') {
            event.preventDefault();
            void add();
          }
        }}
      />
      <datalist id={listId}>
        {(known.data ?? []).filter((name) => !tags.includes(name)).map((name) => <option key={name} value={name} />)}
      </datalist>
    </div>
  );
}
