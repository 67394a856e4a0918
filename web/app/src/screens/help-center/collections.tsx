// A product's collections (docs/help-center.md, "Writing"): the sections of its help center, in
// the order readers see them. Created, renamed, moved up or down (their positions swapped) and
// deleted (their articles stay, in no collection).
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, FormError, Select, TextField } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { EmptyState, ErrorState, Loading, PageHeader } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

type Collection = Schemas['Collection'];

export function Collections() {
  const { products } = useSession();
  const [productId, setProductId] = useState(products[0]?.id ?? '');
  const list = useResource(() => ok(api.GET('/api/v1/collections', { params: { query: { product_id: productId, limit: 200 } } })), [productId]);
  const [name, setName] = useState('');
  const create = useAction();
  const change = useAction();
  const rows = list.data?.data ?? [];

  const add = () => create.run(async () => {
    const { data } = await ok(api.POST('/api/v1/collections', { body: { product_id: productId, name } }));
    announce(`Created ${data.name}`);
    setName('');
    await list.reload();
  });
  const patch = (collection: Collection, body: { name?: string; position?: number }) =>
    ok(api.PATCH('/api/v1/collections/{id}', { params: { path: { id: collection.id } }, body }));
  /** Swaps the positions of two neighbours (ties broken by order: each gets its index first). */
  const move = (index: number, by: -1 | 1) => change.run(async () => {
    const [a, b] = [rows[index], rows[index + by]];
    await patch(a, { position: index + by });
    await patch(b, { position: index });
    await Promise.all(rows.filter((row, i) => i !== index && i !== index + by && row.position !== i).map((row) => patch(row, { position: rows.indexOf(row) })));
    announce(`Moved ${a.name} ${by < 0 ? 'up' : 'down'}`);
    await list.reload();
  });
  const rename = (collection: Collection) => change.run(async () => {
    const next = prompt('New name', collection.name);
    if (!next || next.trim() === collection.name) return;
    await patch(collection, { name: next });
    announce(`Renamed to ${next.trim()}`);
    await list.reload();
  });
  const remove = (collection: Collection) => change.run(async () => {
    if (!confirm(`Delete the collection “${collection.name}”? Its articles stay, in no collection.`)) return;
    await ok(api.DELETE('/api/v1/collections/{id}', { params: { path: { id: collection.id } } }));
    announce(`Deleted ${collection.name}`);
    await list.reload();
  });

  return (
    <div class="page">
      <Link href="/help-center" class="back-link-inline"><Icon name="back" size={16} />Help center</Link>
      <PageHeader title="Collections" description="The sections of a product's help center, in the order readers see them." />
      <form class="card card-body row" onSubmit={(event) => { event.preventDefault(); void add(); }} noValidate>
        {products.length > 1 && <Select compact label="Product" value={productId} options={products.map((p): [string, string] => [p.id, p.name])} onChange={setProductId} />}
        <TextField label="New collection" maxLength={200} value={name} error={create.fields.name} placeholder="Billing" onInput={(event) => setName(event.currentTarget.value)} />
        <Button type="submit" variant="primary" busy={create.busy} disabled={!name.trim()}>Create</Button>
        <FormError message={create.message} />
      </form>
      <FormError message={change.message} />
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : !list.data ? <Loading /> : rows.length === 0 ? (
        <div class="card"><EmptyState title="No collections">Articles can live outside any collection; collections group them for readers.</EmptyState></div>
      ) : (
        <ol class="card plain-list collection-list" aria-label="Collections">
          {rows.map((collection, index) => (
            <li key={collection.id} class="row">
              <strong>{collection.name}</strong><span class="muted small">/{collection.slug}</span>
              <span class="spacer" />
              <Button small disabled={index === 0 || change.busy} onClick={() => void move(index, -1)} aria-label={`Move ${collection.name} up`}>↑</Button>
              <Button small disabled={index === rows.length - 1 || change.busy} onClick={() => void move(index, 1)} aria-label={`Move ${collection.name} down`}>↓</Button>
              <Button small disabled={change.busy} onClick={() => void rename(collection)} aria-label={`Rename ${collection.name}`}>Rename</Button>
              <Button small disabled={change.busy} onClick={() => void remove(collection)} aria-label={`Delete ${collection.name}`}>Delete</Button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
