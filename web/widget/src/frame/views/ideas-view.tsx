// The ideas view: the product's ideas (top or new), an upvote toggle per idea ("Upvote <title>",
// pressed once upvoted), and a form to suggest one. Upvoting and suggesting need a session, made
// on the first such click.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetApi } from '../api.js';
import type { SessionKeeper } from '../session.js';
import type { Idea, Upvote } from '../types.js';

type Sort = 'top' | 'new';
const STATUS_LABELS: Record<string, string> = { open: 'Open', in_progress: 'Planned', resolved: 'Done' };

export function IdeasView({ api, sessions, needsSession }: { api: WidgetApi; sessions: SessionKeeper; needsSession: boolean }) {
  const [sort, setSort] = useState<Sort>('top');
  const [ideas, setIdeas] = useState<Idea[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [suggesting, setSuggesting] = useState(false);
  const [thanks, setThanks] = useState(false);
  const suggestButton = useRef<HTMLButtonElement>(null);
  const finishSuggesting = (sent: boolean) => {
    setSuggesting(false);
    setThanks(sent);
    if (sent) void load();
    // The form goes away with the focus in it: back to the button that opened it.
    setTimeout(() => suggestButton.current?.focus());
  };

  const token = async () => (needsSession ? await sessions.ensure() : sessions.current())?.token ?? null;
  const load = async () => {
    try {
      const { data } = await api.request<{ data: Idea[] }>('GET', `ideas?sort=${sort}`, { token: await token() });
      setIdeas(data);
      setProblem(null);
    } catch (error) {
      setProblem(`The ideas could not be loaded: ${(error as Error).message}`);
    }
  };
  useEffect(() => void load(), [sort]);

  const toggle = async (idea: Idea) => {
    const flip = (upvoted: boolean, upvotes: number) =>
      setIdeas((list) => list?.map((item) => (item.id === idea.id ? { ...item, upvoted, upvotes } : item)) ?? null);
    flip(!idea.upvoted, idea.upvotes + (idea.upvoted ? -1 : 1));
    try {
      const session = await sessions.ensure();
      const { data } = await api.request<{ data: Upvote }>(idea.upvoted ? 'DELETE' : 'POST', `ideas/${idea.id}/upvote`, { token: session.token });
      flip(data.upvoted, data.upvotes);
    } catch (error) {
      flip(idea.upvoted, idea.upvotes);
      setProblem(`Your vote was not counted: ${(error as Error).message}`);
    }
  };

  return (
    <div class="ideas">
      <div class="ideas-head">
        <h2>Ideas</h2>
        <label>
          Sort{' '}
          <select value={sort} onChange={(event) => setSort(event.currentTarget.value as Sort)} data-autofocus>
            <option value="top">Top</option>
            <option value="new">New</option>
          </select>
        </label>
      </div>
      {problem && <p role="alert" class="problem">{problem}</p>}
      {thanks && <p role="status" class="thanks">Thanks! Your idea was sent to the team.</p>}
      {suggesting ? (
        <SuggestForm api={api} sessions={sessions} onDone={finishSuggesting} />
      ) : (
        <button type="button" class="suggest" ref={suggestButton} onClick={() => { setThanks(false); setSuggesting(true); }}>
          Suggest an idea
        </button>
      )}
      {ideas === null ? (
        <p aria-busy="true">Loading ideas…</p>
      ) : ideas.length === 0 ? (
        <p>No ideas yet. Be the first to suggest one.</p>
      ) : (
        <ul class="idea-list">
          {ideas.map((idea) => (
            <li key={idea.id} class="idea">
              <button type="button" class="upvote" aria-label={`Upvote ${idea.title}`} aria-pressed={idea.upvoted} onClick={() => void toggle(idea)}>
                <span aria-hidden="true">▲</span>
              </button>
              <span class="count">{idea.upvotes} {idea.upvotes === 1 ? 'vote' : 'votes'}</span>
              <span class="title">{idea.title}</span>
              {STATUS_LABELS[idea.status] && idea.status !== 'open' && <span class="status">{STATUS_LABELS[idea.status]}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SuggestForm({ api, sessions, onDone }: { api: WidgetApi; sessions: SessionKeeper; onDone(sent: boolean): void }) {
  const [title, setTitle] = useState('');
  const [details, setDetails] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!title.trim()) return setProblem('Give your idea a title.');
    setBusy(true);
    try {
      const session = await sessions.ensure();
      const body = { type: 'idea', title: title.trim(), body: details.trim() || title.trim() };
      await api.request('POST', 'conversations', { body, token: session.token });
      onDone(true);
    } catch (error) {
      setProblem(`Your idea was not sent: ${(error as Error).message}`);
      setBusy(false);
    }
  };

  return (
    <form class="suggest-form" onSubmit={submit} aria-busy={busy}>
      <label for="idea-title">Title</label>
      <input id="idea-title" maxLength={500} value={title} onInput={(event) => setTitle(event.currentTarget.value)} autoFocus />
      <label for="idea-details">Details</label>
      <textarea id="idea-details" rows={3} value={details} onInput={(event) => setDetails(event.currentTarget.value)} />
      {problem && <p role="alert" class="problem">{problem}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>Submit idea</button>
        <button type="button" class="link" onClick={() => onDone(false)}>Cancel</button>
      </div>
    </form>
  );
}
