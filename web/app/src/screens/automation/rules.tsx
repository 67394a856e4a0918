// Settings → Automation: the workspace's rules in the order they run, each with its event, whether
// it is active (toggled in place), how many times it ran and when last; moved up or down, edited,
// deleted. The form is rule-editor.tsx.
import { api, describeError, ok } from '../../api/client.js';
import { Link, navigate } from '../../router.js';
import { Button } from '../../ui/form.js';
import { ago, fullDate } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import { useResource } from '../../use-resource.js';
import { RULES_PATH } from './rule-editor.js';
import { EVENTS, type Rule } from './vocabulary.js';

/** The page size the API allows; a workspace with more rules than this is not one a list can serve. */
const RULES_PAGE = 200;

export function Rules() {
  const list = useResource(() => ok(api.GET('/api/v1/automation-rules', { params: { query: { limit: RULES_PAGE } } })).then((answer) => answer.data), []);

  const change = async (rule: Rule, body: { active?: boolean; position?: number }, done: string) => {
    try {
      await ok(api.PATCH('/api/v1/automation-rules/{id}', { params: { path: { id: rule.id } }, body }));
      announce(done);
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
    await list.reload();
  };
  // The switch shows its new position at once and keeps it while the write is on its way (a render
  // meanwhile would put a controlled checkbox back); the list read after the write has the last word.
  const toggle = (rule: Rule) => {
    list.set((rules) => rules.map((one) => (one.id === rule.id ? { ...one, active: !rule.active } : one)));
    void change(rule, { active: !rule.active }, `${rule.name} ${rule.active ? 'paused' : 'active'}`);
  };
  const remove = async (rule: Rule) => {
    if (!confirm(`Delete the rule "${rule.name}"?`)) return;
    try {
      await ok(api.DELETE('/api/v1/automation-rules/{id}', { params: { path: { id: rule.id } } }));
      announce('Rule deleted');
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
    await list.reload();
  };

  const rules = list.data ?? [];
  return (
    <section aria-labelledby="rules-heading" class="stack">
      <div class="row">
        <h2 id="rules-heading">Automation rules</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => navigate(`${RULES_PATH}/new`)}>New rule</Button>
      </div>
      <p class="muted">When something happens to a conversation, the active rules run in this order; each one whose conditions all hold runs its actions. Changes made by rules never trigger rules.</p>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : rules.length === 0 ? (
        <div class="card"><EmptyState title="No rules">Tag, prioritise and assign new conversations without reading each one.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack" aria-label="Automation rules">
            <thead><tr><th scope="col">#</th><th scope="col">Rule</th><th scope="col">Active</th><th scope="col">Runs</th><th scope="col">Last run</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {rules.map((rule, index) => (
                <tr key={rule.id}>
                  <td data-label="Order">{rule.position}</td>
                  <td>
                    <Link href={`${RULES_PATH}/${rule.id}`}><strong>{rule.name}</strong></Link>
                    <div class="muted small">{EVENTS[rule.event]} · {count(rule.conditions.length, 'condition')} · {count(rule.actions.length, 'action')}</div>
                  </td>
                  <td data-label="Active">
                    <label class="switch">
                      <input type="checkbox" checked={rule.active} onChange={() => toggle(rule)} />
                      <span class="visually-hidden">Active: {rule.name}</span>
                      <span aria-hidden="true">{rule.active ? 'On' : 'Off'}</span>
                    </label>
                  </td>
                  <td data-label="Runs">{rule.runs}</td>
                  <td data-label="Last run">{rule.last_run_at ? <time dateTime={rule.last_run_at} title={fullDate(rule.last_run_at)}>{ago(rule.last_run_at)}</time> : 'Never'}</td>
                  <td class="actions">
                    <Button small disabled={index === 0} onClick={() => void change(rule, { position: rule.position - 1 }, `${rule.name} moved up`)}>Up<span class="visually-hidden"> ({rule.name})</span></Button>{' '}
                    <Button small disabled={index === rules.length - 1} onClick={() => void change(rule, { position: rule.position + 1 }, `${rule.name} moved down`)}>Down<span class="visually-hidden"> ({rule.name})</span></Button>{' '}
                    <Button small variant="danger" onClick={() => void remove(rule)}>Delete<span class="visually-hidden"> {rule.name}</span></Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
