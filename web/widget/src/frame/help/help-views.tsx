// The help center in the widget (docs/widget-frontend.md, "The help center"): before a visitor
// writes, a search box and the suggested articles; while they type a new message, the articles
// that match it (deflection); and an article with "Was this helpful?". Reading an article and
// voting use the visitor's session, so a view counts once per session and a vote can be changed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type WidgetApi } from '../api.js';
import type { SessionKeeper } from '../session.js';
import type { Article, ArticleFeedback, ArticleSummary } from '../types.js';
import './help.css';

/** How long typing pauses before the articles are looked up. */
const DEBOUNCE_MS = 300;
const SHOWN = 5;
const locale = () => (navigator.language ? `&locale=${encodeURIComponent(navigator.language)}` : '');

export interface HelpSuggestionsProps {
  api: WidgetApi;
  /** The message being written: articles matching it are shown instead of the suggestions. */
  draft: string;
  onOpen(id: string): void;
}

export interface HelpArticleProps {
  api: WidgetApi;
  sessions: SessionKeeper;
  id: string;
  onBack(): void;
}

/** The articles for `q` (the suggestions when blank), looked up once typing pauses; undefined until the first answer, null when the help center is off. */
function useArticles(api: WidgetApi, q: string): { q: string; articles: ArticleSummary[] } | null | undefined {
  const [found, setFound] = useState<{ q: string; articles: ArticleSummary[] } | null | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const { data } = await api.request<{ data: ArticleSummary[] }>('GET', `articles?limit=${SHOWN}&q=${encodeURIComponent(q.slice(0, 200))}${locale()}`, { signal: controller.signal });
        setFound({ q, articles: data });
      } catch (error) {
        if (!controller.signal.aborted) setFound(error instanceof ApiError && error.status === 404 ? null : { q, articles: [] });
      }
    }, q.trim() ? DEBOUNCE_MS : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, q.trim()]);
  return found;
}

export function HelpSuggestions({ api, draft, onOpen }: HelpSuggestionsProps) {
  const [query, setQuery] = useState('');
  const found = useArticles(api, query.trim() || draft.trim());
  // Nothing to offer: the help center is off, or has no published article yet.
  if (!found || (!found.q.trim() && found.articles.length === 0 && !query)) return null;
  // Named after the words the articles shown were found for (typing goes on while they are looked up).
  const { q, articles } = found;
  const heading = !q.trim() ? 'Suggested articles' : q.trim() === query.trim() ? 'Articles found' : 'Articles that may answer this';
  return (
    <section class="help" aria-labelledby="help-heading">
      <form class="help-search" role="search" onSubmit={(event) => event.preventDefault()}>
        <label for="help-q" class="visually-hidden">Search help articles</label>
        <input id="help-q" type="search" placeholder="Search help articles" maxLength={200} value={query} onInput={(event) => setQuery(event.currentTarget.value)} />
      </form>
      <h2 id="help-heading">{heading}</h2>
      {articles.length === 0 ? (
        <p class="help-none" role="status">No article matches.</p>
      ) : (
        <ul class="help-list">
          {articles.map((article) => (
            <li key={article.id}>
              <button type="button" class="help-item" lang={article.locale} onClick={() => onOpen(article.id)}>
                <span class="help-title">{article.title}</span>
                <span class="help-excerpt">{article.excerpt}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function HelpArticle({ api, sessions, id, onBack }: HelpArticleProps) {
  const [article, setArticle] = useState<Article | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [thanks, setThanks] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);

  /** A request with the visitor's session; a session the server no longer takes is replaced once. */
  async function withSession<T>(send: (token: string) => Promise<T>): Promise<T> {
    try {
      return await send((await sessions.ensure()).token);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
      sessions.drop();
      return send((await sessions.ensure()).token);
    }
  }

  useEffect(() => {
    setArticle(null);
    withSession((token) => api.request<{ data: Article }>('GET', `articles/${encodeURIComponent(id)}`, { token }))
      .then(({ data }) => setArticle(data), (error: Error) => setProblem(`The article could not be loaded: ${error.message}`));
  }, [id]);
  useEffect(() => {
    if (!article) return;
    // Links leave the widget for a tab of their own; the frame stays where it is.
    body.current?.querySelectorAll('a').forEach((link) => Object.assign(link, { target: '_blank' }));
    heading.current?.focus();
  }, [article]);

  const vote = async (helpful: boolean) => {
    const previous = article!.helpful;
    setArticle({ ...article!, helpful });
    try {
      const { data } = await withSession((token) => api.request<{ data: ArticleFeedback }>('POST', `articles/${encodeURIComponent(id)}/feedback`, { token, body: { helpful } }));
      setArticle((shown) => shown && { ...shown, helpful: data.helpful });
      setThanks(true);
    } catch (error) {
      setArticle((shown) => shown && { ...shown, helpful: previous });
      setProblem(`Your answer was not saved: ${(error as Error).message}`);
    }
  };

  return (
    <div class="help-article">
      <button type="button" class="link" onClick={onBack}>← Back</button>
      {problem && <p role="alert" class="problem">{problem}</p>}
      {article ? (
        <article lang={article.locale} aria-labelledby="article-title">
          <h2 id="article-title" tabIndex={-1} ref={heading}>{article.title}</h2>
          {/* The server's rendering: markdown-it without raw HTML, unsafe links dropped (docs/help-center.md). */}
          <div class="help-body" ref={body} dangerouslySetInnerHTML={{ __html: article.html }} />
          <p><a href={article.url} target="_blank" rel="noopener">Open in the help center</a></p>
          <div class="helpful" role="group" aria-labelledby="helpful-q">
            <span id="helpful-q">Was this helpful?</span>
            <button type="button" aria-pressed={article.helpful === true} onClick={() => void vote(true)}>Yes</button>
            <button type="button" aria-pressed={article.helpful === false} onClick={() => void vote(false)}>No</button>
          </div>
          <p role="status" class="thanks">{thanks ? 'Thanks for your answer.' : ''}</p>
        </article>
      ) : (
        !problem && <p class="notice">Loading…</p>
      )}
    </div>
  );
}
