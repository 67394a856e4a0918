// Products: the list and a new one (its slug, issue prefix and keys are derived by the server).
import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { Link, navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { EmptyState } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';

export function Products() {
  const { products } = useSession();
  const [creating, setCreating] = useState(false);
  return (
    <section aria-labelledby="products-heading" class="stack">
      <div class="row">
        <h2 id="products-heading">Products</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => setCreating(true)}>New product</Button>
      </div>
      {products.length === 0 ? <div class="card"><EmptyState title="No products yet">A product has its own issues, widget and changelog.</EmptyState></div> : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Name</th><th scope="col">Issue prefix</th><th scope="col">Slug</th><th scope="col">Domain</th></tr></thead>
            <tbody>
              {products.map((product) => (
                <tr key={product.id}>
                  <td><Link href={`/settings/products/${product.id}`}><strong>{product.name}</strong></Link></td>
                  <td data-label="Issue prefix">{product.issue_prefix}</td>
                  <td data-label="Slug">{product.slug}</td>
                  <td data-label="Domain">{product.domain ?? <span class="muted">Any</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating && <NewProductDialog close={() => setCreating(false)} />}
    </section>
  );
}

function NewProductDialog({ close }: { close: () => void }) {
  const { reloadProducts } = useSession();
  const [name, setName] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await ok(api.POST('/api/v1/products', { body: { name } }));
      await reloadProducts();
      announce(`Created ${answer.data.name}`);
      navigate(`/settings/products/${answer.data.id}`);
    });
  };
  const { fields } = action;
  return (
    <Dialog title="New product" close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Name" required maxLength={200} value={name} error={fields.name} hint="Its slug and issue prefix are derived from the name; both can be changed later."
          onInput={(event) => setName(event.currentTarget.value)} />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy} disabled={!name.trim()}>Create product</Button>
        </div>
      </form>
    </Dialog>
  );
}
