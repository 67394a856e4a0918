// One release: its issues, publish (or back to draft), its texts, and the public changelog.
import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { PriorityBadge, StatusBadge } from '../../ui/badges.js';
import { Button, FormError, TextArea, TextField } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { fullDate } from '../../ui/labels.js';
import { ErrorState, Loading, PageHeader } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { ReleaseBadge } from './release-badge.js';

type Release = Schemas['ReleaseDetail'];
type Patch = { title?: string; version?: string | null; description?: string | null; released_at?: string | null };

export function ReleaseView({ id }: { id: string }) {
  const release = useResource(() => ok(api.GET('/api/v1/releases/{id}', { params: { path: { id } } })).then((answer) => answer.data), [id]);
  return (
    <div class="page">
      <Link href="/releases" class="back-link-inline"><Icon name="back" size={16} />Releases</Link>
      {release.data ? <ReleaseBody release={release.data} saved={release.set} />
        : release.error ? <ErrorState error={release.error} retry={release.reload} /> : <Loading />}
    </div>
  );
}

function ReleaseBody({ release, saved }: { release: Release; saved: (release: Release) => void }) {
  const { products } = useSession();
  const [title, setTitle] = useState(release.title);
  const [version, setVersion] = useState(release.version ?? '');
  const [description, setDescription] = useState(release.description ?? '');
  const action = useAction<'draft' | 'publish' | 'texts'>();
  useEffect(() => {
    setTitle(release.title);
    setVersion(release.version ?? '');
    setDescription(release.description ?? '');
  }, [release.updated_at]);

  const save = (body: Patch, what: 'draft' | 'publish' | 'texts', message: string) => action.run(async () => {
    saved((await ok(api.PATCH('/api/v1/releases/{id}', { params: { path: { id: release.id } }, body }))).data);
    announce(message);
  }, what);
  const product = products.find((p) => p.id === release.product_id);
  const published = release.released_at !== null;
  const changed = title !== release.title || version !== (release.version ?? '') || description !== (release.description ?? '');
  const { fields } = action;

  return (
    <>
      <PageHeader
        title={release.title}
        description={<><ReleaseBadge release={release} /> {release.version && <>· {release.version} </>}· {release.product.name}{published && <> · {fullDate(release.released_at!)}</>}</>}
        actions={
          <>
            {product && <a class="button button-secondary" href={`/widget/v1/${product.widget_key}/changelog`} target="_blank" rel="noopener">Public changelog <Icon name="external" size={14} /></a>}
            {published
              ? <Button busy={action.running === 'draft'} onClick={() => void save({ released_at: null }, 'draft', 'Back to draft')}>Back to draft</Button>
              : <Button variant="primary" busy={action.running === 'publish'} onClick={() => void save({ released_at: new Date().toISOString() }, 'publish', `Published ${release.title}`)}>Publish</Button>}
          </>
        }
      />
      <FormError message={action.message} />
      <section class="card card-body" aria-labelledby="release-issues">
        <h2 id="release-issues" class="section-title">Issues ({release.issues.length})</h2>
        {release.issues.length === 0 ? <p class="muted">This release ships no issues.</p> : (
          <ul class="plain-list release-issues">
            {release.issues.map((issue) => (
              <li key={issue.id}>
                <Link href={`/issues/${issue.id}`}>{issue.title}</Link>
                <span class="spacer" />
                <PriorityBadge priority={issue.priority} quiet />
                <StatusBadge status={issue.status} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <form class="card card-body stack" onSubmit={(event) => { event.preventDefault(); void save({ title, version: version.trim() || null, description: description.trim() || null }, 'texts', 'Release saved'); }}>
        <h2 class="section-title">Details</h2>
        <div class="settings-grid">
          <TextField label="Title" required maxLength={500} value={title} error={fields.title} onInput={(event) => setTitle(event.currentTarget.value)} />
          <TextField label="Version" maxLength={100} value={version} error={fields.version} onInput={(event) => setVersion(event.currentTarget.value)} />
        </div>
        <TextArea label="Description" rows={5} value={description} error={fields.description} hint="Markdown, shown on the public changelog." onInput={(event) => setDescription(event.currentTarget.value)} />
        <div class="row"><Button type="submit" busy={action.running === 'texts'} disabled={!changed || !title.trim()}>Save changes</Button></div>
      </form>
    </>
  );
}
