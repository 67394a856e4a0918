// One article: its Markdown beside the server's rendering of it (POST /articles/preview, the
// renderer of the public pages and the widget, so what the preview shows is what readers get and
// no raw HTML ever runs), saved as a draft, published or taken back; its views and helpful rate;
// and its translation group: a translation is written beside its original.
import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link, navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, FormError, Select, TextArea, TextField } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { ErrorState, Loading, PageHeader } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { helpfulRate } from './help-center.js';
import { Translations } from './translations.js';

type Article = Schemas['Article'];
const PREVIEW_DELAY_MS = 400;

/** The server's rendering of `body`, refreshed once typing pauses. */
function usePreview(body: string): string | null {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const { data } = await ok(api.POST('/api/v1/articles/preview', { body: { body } }));
        if (current) setHtml(data.html);
      } catch {
        // The preview stays as it was; saving reports what is wrong with the body.
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [body]);
  return html;
}

/** Trusted HTML: the server's rendering of Markdown with raw HTML off and unsafe links dropped. */
const Rendered = ({ html, lang }: { html: string; lang?: string }) => <div class="article-body" lang={lang} dangerouslySetInnerHTML={{ __html: html }} />;

export function ArticleEditor({ id }: { id: string | null }) {
  const loaded = useResource(async () => (id ? (await ok(api.GET('/api/v1/articles/{id}', { params: { path: { id } } }))).data : null), [id]);
  if (loaded.error) return <div class="page"><ErrorState error={loaded.error} retry={loaded.reload} /></div>;
  if (loaded.data === undefined) return <div class="page"><Loading /></div>;
  return <Editor key={loaded.data?.id ?? 'new'} article={loaded.data} saved={(article) => loaded.set(article)} />;
}

function Editor({ article, saved }: { article: Article | null; saved(article: Article): void }) {
  const { products } = useSession();
  const [productId, setProductId] = useState(article?.product_id ?? products[0]?.id ?? '');
  const [title, setTitle] = useState(article?.title ?? '');
  const [body, setBody] = useState(article?.body ?? '');
  const [collectionId, setCollectionId] = useState(article?.collection_id ?? '');
  const [locale, setLocale] = useState(article?.locale ?? 'en');
  const [pane, setPane] = useState<'preview' | 'original'>(article?.translation_of ? 'original' : 'preview');
  const action = useAction<'save' | 'publish' | 'unpublish' | 'delete'>();
  const preview = usePreview(body);
  const collections = useResource(() => ok(api.GET('/api/v1/collections', { params: { query: { product_id: productId, limit: 200 } } })), [productId]);
  const original = useResource(async () => {
    if (!article?.translation_of) return null;
    const { data } = await ok(api.GET('/api/v1/articles/{id}', { params: { path: { id: article.translation_of } } }));
    return { article: data, html: (await ok(api.POST('/api/v1/articles/preview', { body: { body: data.body } }))).data.html };
  }, [article?.translation_of]);

  const fields = { title, body, collection_id: collectionId || null, locale: locale.trim() };
  const save = (status?: Article['status']) => action.run(async () => {
    if (article) {
      const { data } = await ok(api.PATCH('/api/v1/articles/{id}', { params: { path: { id: article.id } }, body: { ...fields, ...(status && { status }) } }));
      saved(data);
      announce(status === 'published' ? `Published ${data.title}` : status === 'draft' ? `${data.title} is a draft again` : `Saved ${data.title}`);
    } else {
      const { data } = await ok(api.POST('/api/v1/articles', { body: { product_id: productId, ...fields, status: status ?? 'draft' } }));
      announce(status === 'published' ? `Published ${data.title}` : `Saved ${data.title} as a draft`);
      navigate(`/help-center/articles/${data.id}`);
    }
  }, status === 'published' ? 'publish' : status === 'draft' ? 'unpublish' : 'save');
  const remove = () => action.run(async () => {
    if (!article || !confirm(`Delete “${article.title}”? Its translations stay, as originals.`)) return;
    await ok(api.DELETE('/api/v1/articles/{id}', { params: { path: { id: article.id } } }));
    announce(`Deleted ${article.title}`);
    navigate('/help-center');
  }, 'delete');
  const published = article?.status === 'published';

  return (
    <div class="page">
      <Link href="/help-center" class="back-link-inline"><Icon name="back" size={16} />Help center</Link>
      <PageHeader
        title={article ? article.title : 'New article'}
        description={article
          ? <>{published ? 'Published' : 'Draft'} · {article.locale} · {article.views} views · helpful {helpfulRate(article)}</>
          : 'A draft until you publish it.'}
      />
      <form class="card card-body stack" onSubmit={(event) => { event.preventDefault(); void save(); }} noValidate>
        <FormError message={action.message} />
        <div class="settings-grid">
          {!article && products.length > 1 && (
            <Select label="Product" value={productId} options={products.map((p): [string, string] => [p.id, p.name])} onChange={(next) => { setProductId(next); setCollectionId(''); }} error={action.fields.product_id} />
          )}
          <TextField label="Title" required maxLength={200} value={title} error={action.fields.title} onInput={(event) => setTitle(event.currentTarget.value)} />
          <Select label="Collection" value={collectionId} error={action.fields.collection_id}
            options={[['', 'No collection'], ...(collections.data?.data ?? []).map((c): [string, string] => [c.id, c.name])]} onChange={setCollectionId} />
          <TextField label="Locale" maxLength={35} value={locale} error={action.fields.locale} hint="A language tag: en, de, pt-BR." onInput={(event) => setLocale(event.currentTarget.value)} />
        </div>
        <div class="article-split">
          <TextArea label="Body" rows={18} maxLength={100000} value={body} error={action.fields.body} hint="Markdown. Raw HTML is shown as text." onInput={(event) => setBody(event.currentTarget.value)} />
          <section class="article-pane" aria-label={pane === 'preview' ? 'Preview' : 'Original'}>
            {article?.translation_of && (
              <div class="row" role="group" aria-label="Beside the editor">
                <Button small aria-pressed={pane === 'original'} onClick={() => setPane('original')}>Original</Button>
                <Button small aria-pressed={pane === 'preview'} onClick={() => setPane('preview')}>Preview</Button>
              </div>
            )}
            {pane === 'original' && original.data ? (
              <>
                <h2 class="small-heading">Original ({original.data.article.locale})</h2>
                <h3 lang={original.data.article.locale}>{original.data.article.title}</h3>
                <Rendered html={original.data.html} lang={original.data.article.locale} />
              </>
            ) : (
              <>
                <h2 class="small-heading">Preview</h2>
                {preview === null ? <Loading label="Rendering…" /> : <Rendered html={preview} lang={locale} />}
              </>
            )}
          </section>
        </div>
        <div class="row">
          {article && <Button busy={action.running === 'delete'} disabled={action.busy} onClick={() => void remove()}>Delete</Button>}
          <span class="spacer" />
          {published && <Button busy={action.running === 'unpublish'} disabled={action.busy} onClick={() => void save('draft')}>Unpublish</Button>}
          <Button type="submit" busy={action.running === 'save'} disabled={!title.trim() || action.busy}>{article ? 'Save' : 'Save draft'}</Button>
          {!published && <Button variant="primary" busy={action.running === 'publish'} disabled={!title.trim() || action.busy} onClick={() => void save('published')}>Publish</Button>}
        </div>
      </form>
      {article && <Translations article={article} />}
    </div>
  );
}
