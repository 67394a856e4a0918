// Suggested articles beside the reply box: the help center's published articles that answer the
// conversation (GET /conversations/{id}/suggested-articles, docs/help-center.md "Answers"), asked
// for once the thread is on screen, so they never hold it up. Each goes into the reply as a
// Markdown link with one click (or Enter/Space on its button). Nothing is shown when none matches,
// while they load, or when the request fails: they are a help, never in the way.
import { api, ok } from '../../api/client.js';
import { Button } from '../../ui/form.js';
import { useResource } from '../../use-resource.js';

/** A Markdown link whose text and address survive any title or URL: brackets escaped, parentheses and spaces percent-encoded. */
export function markdownLink(title: string, url: string): string {
  const text = title.replace(/[\\[\]]/g, (character) => `\\${character}`);
  const address = url.replace(/[()\s]/g, (character) => encodeURIComponent(character));
  return `[${text}](${address})`;
}

export function SuggestedArticles({ conversationId, insert }: { conversationId: string; insert: (link: string) => void }) {
  const found = useResource(
    () => ok(api.GET('/api/v1/conversations/{id}/suggested-articles', { params: { path: { id: conversationId } } })).then((answer) => answer.data),
    [conversationId],
  );
  if (!found.data || found.data.length === 0) return null;
  const headingId = `suggested-articles-${conversationId}`;
  return (
    <section class="suggested-articles" aria-labelledby={headingId}>
      <h3 id={headingId} class="suggested-articles-title">Suggested articles</h3>
      <ul class="suggested-articles-list">
        {found.data.map(({ article, passage }) => (
          <li key={article.id} class="suggested-article">
            <a href={article.url} target="_blank" rel="noopener" title={passage}>{article.title}</a>
            <Button small aria-label={`Insert link to “${article.title}” into the reply`} onClick={() => insert(markdownLink(article.title, article.url))}>
              Insert link
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
