// "New issue" on the board: a plain create (POST /issues); reports from customers go through the
// inbox's deduplicating create instead.
import { useState } from 'preact/hooks';
import { ApiError, api, describeError, ok } from '../../api/client.js';
import { useSession } from '../../session.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, Select, TextArea, TextField } from '../../ui/form.js';
import { PRIORITIES, entries, type Priority } from '../../ui/labels.js';
import { announce } from '../../ui/toast.js';

export function NewIssueDialog({ defaultProductId, close, created }: { defaultProductId: string; close: () => void; created: (shortcode: string) => void }) {
  const { products } = useSession();
  const [productId, setProductId] = useState(defaultProductId || products[0]?.id || '');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState<Priority>('normal');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await ok(api.POST('/api/v1/issues', { body: { product_id: productId, title, description: description || null, priority } }));
      announce(`Created ${answer.data.shortcode}`);
      created(answer.data.shortcode);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  const fields = error instanceof ApiError ? error.fields : {};
  return (
    <Dialog title="New issue" close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={error && !Object.keys(fields).length ? describeError(error) : null} />
        {products.length > 1 && <Select label="Product" value={productId} options={products.map((p): [string, string] => [p.id, p.name])} onChange={setProductId} error={fields.product_id} />}
        <TextField label="Title" required maxLength={500} value={title} error={fields.title} onInput={(event) => setTitle(event.currentTarget.value)} />
        <TextArea label="Description" rows={4} value={description} error={fields.description} onInput={(event) => setDescription(event.currentTarget.value)} />
        <Select label="Priority" value={priority} options={entries(PRIORITIES)} onChange={setPriority} />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!title.trim()}>Create issue</Button>
        </div>
      </form>
    </Dialog>
  );
}
