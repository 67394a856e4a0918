// "New issue" on the board: a plain create (POST /issues); reports from customers go through the
// inbox's deduplicating create instead.
import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { useSession } from '../../session.js';
import { Dialog } from '../../ui/dialog.js';
import { Select } from '../../ui/form.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { IssueDraftForm, type IssueDraft } from './issue-draft-form.js';

export function NewIssueDialog({ defaultProductId, close, created }: { defaultProductId: string; close: () => void; created: (shortcode: string) => void }) {
  const { products } = useSession();
  const [productId, setProductId] = useState(defaultProductId || products[0]?.id || '');
  const [draft, setDraft] = useState<IssueDraft>({ title: '', description: '', priority: 'normal' });
  const action = useAction();
  const submit = async () => {
    const answer = await ok(api.POST('/api/v1/issues', { body: { product_id: productId, title: draft.title, description: draft.description || null, priority: draft.priority } }));
    announce(`Created ${answer.data.shortcode}`);
    created(answer.data.shortcode);
  };
  return (
    <Dialog title="New issue" close={close}>
      <IssueDraftForm draft={draft} change={setDraft} action={action} descriptionRows={4} close={close} submit={submit}>
        {products.length > 1 && <Select label="Product" value={productId} options={products.map((p): [string, string] => [p.id, p.name])} onChange={setProductId} error={action.fields.product_id} />}
      </IssueDraftForm>
    </Dialog>
  );
}
