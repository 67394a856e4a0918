// Automation in tests: rules run from the fanned-out events, which no dispatcher does here; `settle`
// fans out what was recorded and runs the rule jobs until none is left.
import assert from 'node:assert/strict';
import { fanOutAll, type EventContext } from './events.js';
import { unique, type Client } from './harness.js';

type Fields = Record<string, unknown>;

export async function createRule(api: Client, overrides: Fields = {}): Promise<any> {
  const res = await api.post('/api/v1/automation-rules', {
    name: unique('Rule'), event: 'conversation.created', actions: [{ type: 'add_tags', tags: ['ruled'] }], ...overrides,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export async function createMacro(api: Client, overrides: Fields = {}): Promise<any> {
  const res = await api.post('/api/v1/macros', { name: unique('Macro'), actions: [{ type: 'add_tags', tags: ['macro'] }], ...overrides });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** Fans out every recorded event and runs the rule jobs it planned, until none is left. */
export async function settle(context: EventContext): Promise<void> {
  await fanOutAll(context);
  await context.services.automationRunner.run();
  const left = await context.database.db.selectFrom('automation_jobs').select('id').where('status', '=', 'pending').execute();
  assert.deepEqual(left, [], 'rule jobs left pending');
}
