// An article's translation group (docs/help-center.md, "Translating"): the original and its
// translations, one per locale, and a new translation started from the original's text, opened
// beside it in the editor.
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link, navigate } from '../../router.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { helpfulRate } from './help-center.js';

type Article = Schemas['Article'];

export function Translations({ article }: { article: Article }) {
  const originalId = article.translation_of ?? article.id;
  const group = useResource(async () => {
    const { data } = await ok(api.GET('/api/v1/articles', { params: { query: { product_id: article.product_id, limit: 200 } } }));
    return data.filter((other) => other.id === originalId || other.translation_of === originalId).sort((a, b) => a.locale.localeCompare(b.locale));
  }, [originalId, article.updated_at]);
  const [locale, setLocale] = useState('');
  const action = useAction();
  const translate = () => action.run(async () => {
    const original = group.data?.find((other) => other.id === originalId) ?? article;
    const { data } = await ok(api.POST('/api/v1/articles', {
      body: { product_id: original.product_id, collection_id: original.collection_id, title: original.title, body: original.body, locale: locale.trim(), translation_of: originalId },
    }));
    announce(`Started the ${data.locale} translation`);
    setLocale('');
    navigate(`/help-center/articles/${data.id}`);
  });

  return (
    <section class="card card-body stack" aria-labelledby="translations-heading">
      <h2 id="translations-heading">Translations</h2>
      <ul class="plain-list translation-list">
        {(group.data ?? []).map((member) => (
          <li key={member.id}>
            {member.id === article.id ? <strong>{member.locale}: {member.title} (this article)</strong>
              : <Link href={`/help-center/articles/${member.id}`}>{member.locale}: {member.title}</Link>}
            <span class="muted small"> · {member.id === originalId ? 'original' : 'translation'} · {member.status} · {member.views} views · helpful {helpfulRate(member)}</span>
          </li>
        ))}
      </ul>
      <form class="row" onSubmit={(event) => { event.preventDefault(); void translate(); }} noValidate>
        <FormError message={action.message} />
        <TextField label="Translate into" maxLength={35} placeholder="de" value={locale} error={action.fields.locale ?? action.fields.translation_of} onInput={(event) => setLocale(event.currentTarget.value)} />
        <Button type="submit" busy={action.busy} disabled={!locale.trim()}>Add translation</Button>
      </form>
    </section>
  );
}
