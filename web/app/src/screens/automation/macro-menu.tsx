// The conversation's Macros menu: a button in its actions toolbar and the key `.` (not while
// typing; M is "Assign to me"). It lists the workspace's macros, narrowed by what is typed, and runs
// the one picked on the conversation; the conversation the server answers replaces the one shown.
// A macro that fails (an action that no longer fits) changes nothing, and its error stays in the menu.
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { EmptyState, ErrorState, Loading } from '../../ui/page.js';
import { useShortcut } from '../../ui/shortcuts.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { MACROS_PATH } from './macros.js';
import { ACTIONS } from './vocabulary.js';

type Macro = Schemas['Macro'];
export const MACRO_KEY = '.';

/** The server's field errors of a run as people read them: `actions[1].saved_reply_id` is "action 2". */
const failure = (fields: Record<string, string>) =>
  Object.entries(fields).map(([name, message]) => `${name.replace(/^actions\[(\d+)\].*$/, (_, index: string) => `action ${Number(index) + 1}`)} ${message}`).join('; ');

export function MacroMenu({ conversationId, ran }: { conversationId: string; ran: (conversation: Schemas['ConversationDetail']) => void }) {
  const [open, setOpen] = useState(false);
  useShortcut(MACRO_KEY, () => setOpen(true));
  return (
    <>
      <Button small onClick={() => setOpen(true)} title={`Run a macro (${MACRO_KEY})`} aria-haspopup="dialog">Macros <kbd aria-hidden="true">{MACRO_KEY}</kbd></Button>
      {open && <MacroDialog conversationId={conversationId} ran={ran} close={() => setOpen(false)} />}
    </>
  );
}

function MacroDialog({ conversationId, ran, close }: { conversationId: string; ran: (conversation: Schemas['ConversationDetail']) => void; close: () => void }) {
  const macros = useResource(() => ok(api.GET('/api/v1/macros', { params: { query: { limit: 200 } } })).then((answer) => answer.data), []);
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const running = useAction();
  const needle = filter.trim().toLowerCase();
  const shown = (macros.data ?? []).filter((macro) => !needle || macro.name.toLowerCase().includes(needle));
  const current = Math.min(active, shown.length - 1);

  const run = (macro: Macro) => void running.run(async () => {
    const answer = await ok(api.POST('/api/v1/conversations/{id}/macros/{macro_id}', { params: { path: { id: conversationId, macro_id: macro.id } } }));
    ran(answer.data);
    announce(`Ran the macro ${macro.name}`);
    close();
  });

  return (
    <Dialog title="Run a macro" close={close}>
      <TextField label="Filter macros" hideLabel type="search" placeholder="Filter by name" value={filter}
        onInput={(event) => { setFilter(event.currentTarget.value); setActive(0); }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive(Math.min(current + 1, shown.length - 1));
          else if (event.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
          else if (event.key === 'Enter' && shown[current]) run(shown[current]);
          else return;
          event.preventDefault();
        }} />
      <FormError message={running.error ? `The macro did not run: ${failure(running.fields) || running.message}` : null} />
      {macros.error ? <ErrorState error={macros.error} retry={macros.reload} /> : !macros.data ? <Loading /> : shown.length === 0 ? (
        <EmptyState title={macros.data.length === 0 ? 'No macros yet' : 'No match'}>
          {macros.data.length === 0 ? <>Save one in <Link href={MACROS_PATH}>Settings → Macros</Link>.</> : 'Try other words.'}
        </EmptyState>
      ) : (
        <ul class="picker-list" aria-label="Macros">
          {shown.map((macro, index) => (
            <li key={macro.id}>
              <button type="button" class={`picker-option ${index === current ? 'picker-option-active' : ''}`} disabled={running.busy} onClick={() => run(macro)}>
                <span class="picker-title">{macro.name}</span>
                <span class="picker-excerpt muted">{macro.actions.map((one) => ACTIONS[one.type]).join(' → ')}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="muted small"><Link href={MACROS_PATH}>Manage macros</Link></p>
    </Dialog>
  );
}
