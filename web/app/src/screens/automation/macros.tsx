// Settings → Macros: saved lists of actions an agent runs on a conversation in one go (from the
// conversation's Macros menu); the list, and the form that builds one with the same action rows as
// rules. Any member may write macros, so this section is open to agents too (settings.tsx).
import { useRef, useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Link, navigate } from '../../router.js';
import { Button, TextField } from '../../ui/form.js';
import { ago } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, Pager } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { ActionRows } from './action-rows.js';
import { EditorFrame, Editing } from './editor-frame.js';
import { count } from './rules.js';
import { actionDraft, actionOf, ACTIONS, newAction } from './vocabulary.js';

type Macro = Schemas['Macro'];

export const MACROS_PATH = '/settings/macros';

export function Macros() {
  const [offset, setOffset] = useState(0);
  const list = useResource(() => ok(api.GET('/api/v1/macros', { params: { query: { limit: 50, offset } } })), [offset]);

  const remove = async (macro: Macro) => {
    if (!confirm(`Delete the macro "${macro.name}"?`)) return;
    try {
      await ok(api.DELETE('/api/v1/macros/{id}', { params: { path: { id: macro.id } } }));
      announce('Macro deleted');
      await list.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  return (
    <section aria-labelledby="macros-heading" class="stack">
      <div class="row">
        <h2 id="macros-heading">Macros</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => navigate(`${MACROS_PATH}/new`)}>New macro</Button>
      </div>
      <p class="muted">A macro runs its actions on the open conversation, all or nothing, from the conversation's <strong>Macros</strong> menu (key <kbd>.</kbd>).</p>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <div class="card"><EmptyState title="No macros">Save what you do to conversations again and again: tag, set the status, add a note, reply.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack" aria-label="Macros">
            <thead><tr><th scope="col">Macro</th><th scope="col">Actions</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.data.data.map((macro) => (
                <tr key={macro.id}>
                  <td><Link href={`${MACROS_PATH}/${macro.id}`}><strong>{macro.name}</strong></Link></td>
                  <td data-label="Actions" class="small">{count(macro.actions.length, 'action')}: {macro.actions.map((one) => ACTIONS[one.type]).join(', ')}</td>
                  <td data-label="Updated">{ago(macro.updated_at)}</td>
                  <td class="actions"><Button small variant="danger" onClick={() => void remove(macro)}>Delete<span class="visually-hidden"> {macro.name}</span></Button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager label="Macro pages" pagination={list.data.pagination} onPage={setOffset} />}
    </section>
  );
}

const loadMacro = async (id: string) => (await ok(api.GET('/api/v1/macros/{id}', { params: { path: { id } } }))).data;

/** The form for the macro `id`, or for a new one when `id` is null. */
export function MacroEditor({ id }: { id: string | null }) {
  return <Editing id={id} load={loadMacro} form={(macro) => <MacroForm key={id ?? 'new'} macro={macro} />} />;
}

function MacroForm({ macro }: { macro: Macro | null }) {
  const [name, setName] = useState(macro?.name ?? '');
  const [actions, setActions] = useState(() => (macro ? macro.actions.map(actionDraft) : [newAction()]));
  const action = useAction();
  const sent = useRef<number[]>([]);
  const save = async () => {
    sent.current = actions.map((row) => row.key);
    const body = { name, actions: actions.map(actionOf) };
    if (macro) await ok(api.PATCH('/api/v1/macros/{id}', { params: { path: { id: macro.id } }, body }));
    else await ok(api.POST('/api/v1/macros', { body }));
    announce(macro ? 'Macro saved' : 'Macro created');
  };
  return (
    <EditorFrame noun="macro" editing={macro?.name ?? null} back={MACROS_PATH} action={action} save={save}>
      <div class="card card-body">
        <TextField label="Name" value={name} error={action.fields.name} placeholder="Close as duplicate" onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <div class="card card-body"><ActionRows rows={actions} onChange={setActions} fields={action.fields} sent={sent.current} /></div>
    </EditorFrame>
  );
}
