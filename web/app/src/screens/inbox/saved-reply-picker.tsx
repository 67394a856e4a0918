// Picking a saved reply from the reply box: the workspace's saved replies, narrowed by what is
// typed in the filter (title or text), chosen with a click, or from the filter with the arrow
// keys and Enter (an Enter typed before the list arrived picks the first match when it does).
import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Dialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/form.js';
import { EmptyState, ErrorState, Loading } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';

type SavedReply = Schemas['SavedReply'];

export function SavedReplyPicker({ close, pick }: { close: () => void; pick: (reply: SavedReply) => void }) {
  const replies = useResource(() => ok(api.GET('/api/v1/saved-replies', { params: { query: { limit: 200 } } })).then((answer) => answer.data), []);
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const needle = filter.trim().toLowerCase();
  const shown = (replies.data ?? []).filter((reply) => !needle || `${reply.title}\n${reply.body}`.toLowerCase().includes(needle));
  const current = Math.min(active, shown.length - 1);
  const [enterWhileLoading, setEnterWhileLoading] = useState(false);
  useEffect(() => {
    if (enterWhileLoading && replies.data && shown[current]) pick(shown[current]);
  }, [enterWhileLoading, replies.data]);

  return (
    <Dialog title="Saved replies" close={close}>
      <TextField
        label="Filter saved replies"
        hideLabel
        type="search"
        placeholder="Filter by title or text"
        value={filter}
        onInput={(event) => { setFilter(event.currentTarget.value); setActive(0); }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive(Math.min(current + 1, shown.length - 1));
          else if (event.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
          else if (event.key === 'Enter' && shown[current]) pick(shown[current]);
          else if (event.key === 'Enter' && !replies.data) setEnterWhileLoading(true);
          else return;
          event.preventDefault();
        }}
      />
      {replies.error ? <ErrorState error={replies.error} retry={replies.reload} /> : !replies.data ? <Loading /> : shown.length === 0 ? (
        <EmptyState title={replies.data.length === 0 ? 'No saved replies yet' : 'No match'}>
          {replies.data.length === 0 ? 'Owners and admins add them in Settings → Saved replies.' : 'Try other words.'}
        </EmptyState>
      ) : (
        <ul class="picker-list" aria-label="Saved replies">
          {shown.map((reply, index) => (
            <li key={reply.id}>
              <button type="button" class={`picker-option ${index === current ? 'picker-option-active' : ''}`} onClick={() => pick(reply)}>
                <span class="picker-title">{reply.title}</span>
                <span class="picker-excerpt muted">{reply.body}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
