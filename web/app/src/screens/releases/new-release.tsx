// A new release: a product, a title and version, the done issues it ships (all ticked to start
// with), saved as a draft or published at once.
import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { Link, navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { PriorityBadge } from '../../ui/badges.js';
import { Button, Checkbox, FormError, Select, TextArea, TextField } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { EmptyState, ErrorState, Loading, PageHeader } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

/** The most issues one release takes from the picker (the API's page limit). */
const DONE_LIMIT = 200;

export function NewRelease() {
  const { products } = useSession();
  const [productId, setProductId] = useState(products[0]?.id ?? '');
  const [title, setTitle] = useState('');
  const [version, setVersion] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const action = useAction<'draft' | 'publish'>();
  const done = useResource(() => ok(api.GET('/api/v1/issues', { params: { query: { product_id: productId, status: 'done', limit: DONE_LIMIT } } })), [productId]);
  useEffect(() => {
    if (done.data) setChosen(new Set(done.data.data.map((issue) => issue.id)));
  }, [done.data]);

  const submit = (publish: boolean) => action.run(async () => {
    const answer = await ok(api.POST('/api/v1/releases', {
      body: {
        product_id: productId, title, version: version.trim() || null, description: description.trim() || null, issue_ids: [...chosen],
        ...(publish ? {} : { released_at: null }),
      },
    }));
    announce(publish ? `Published ${answer.data.title}` : `Saved ${answer.data.title} as a draft`);
    navigate(`/releases/${answer.data.id}`);
  }, publish ? 'publish' : 'draft');
  const toggle = (id: string, on: boolean) => setChosen((set) => {
    const next = new Set(set);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  });
  const { fields } = action;

  return (
    <div class="page">
      <Link href="/releases" class="back-link-inline"><Icon name="back" size={16} />Releases</Link>
      <PageHeader title="New release" description="Ticked issues become released; a draft changes nothing until it is published." />
      <form class="card card-body stack" onSubmit={(event) => { event.preventDefault(); void submit(true); }} noValidate>
        <FormError message={action.message} />
        <div class="settings-grid">
          {products.length > 1 && <Select label="Product" value={productId} options={products.map((p): [string, string] => [p.id, p.name])} onChange={setProductId} error={fields.product_id} />}
          <TextField label="Title" required maxLength={500} value={title} error={fields.title} placeholder="November fixes" onInput={(event) => setTitle(event.currentTarget.value)} />
          <TextField label="Version" maxLength={100} value={version} error={fields.version} placeholder="2.4.0" onInput={(event) => setVersion(event.currentTarget.value)} />
        </div>
        <TextArea label="Description" rows={4} value={description} error={fields.description} hint="Markdown, shown on the public changelog." onInput={(event) => setDescription(event.currentTarget.value)} />
        <fieldset class="fieldset">
          <legend class="field-label">Done issues to ship ({chosen.size} chosen)</legend>
          {done.error ? <ErrorState error={done.error} retry={done.reload} /> : !done.data ? <Loading /> : done.data.data.length === 0 ? (
            <EmptyState title="No done issues">Move issues to Done on the board first; a release may also ship none.</EmptyState>
          ) : (
            <div class="issue-pick">
              {done.data.data.map((issue) => (
                <div key={issue.id} class="row">
                  <Checkbox label={`${issue.shortcode} · ${issue.title}`} checked={chosen.has(issue.id)} onChange={(on) => toggle(issue.id, on)} />
                  <PriorityBadge priority={issue.priority} quiet />
                </div>
              ))}
            </div>
          )}
          {fields.issue_ids && <p class="field-error">{fields.issue_ids}</p>}
        </fieldset>
        <div class="row">
          <span class="spacer" />
          <Button busy={action.running === 'draft'} disabled={!title.trim() || action.busy} onClick={() => void submit(false)}>Save draft</Button>
          <Button type="submit" variant="primary" busy={action.running === 'publish'} disabled={!title.trim() || action.busy}>Publish</Button>
        </div>
      </form>
    </div>
  );
}
