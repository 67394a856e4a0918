// A conversation's SLA as its lists show it, from its clocks (src/domain/service-levels/sla-clocks.ts,
// slaColumnsOf): the latest due time of each target, the earliest running one, the breaches in the
// order they happened, and the status rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SlaClockRow } from '../../src/db/repositories/service-levels/sla-clock.repository.js';
import { NO_SLA, slaColumnsOf } from '../../src/domain/service-levels/sla-clocks.js';

const POLICY = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0001';
let n = 0;
const clock = (target: string, fields: Partial<SlaClockRow> = {}): SlaClockRow => ({
  id: `clock-${++n}`, workspace_id: 'w', conversation_id: 'c', target, policy_id: POLICY, started_at: '2026-11-21T10:00:00.000Z',
  due_at: '2026-11-21T11:00:00.000Z', stopped_at: null, outcome: null, breached_at: null,
  value_seconds: null, business_seconds: null, answered_by: null, ...fields,
});

describe('slaColumnsOf', () => {
  it('is no SLA without a policy, whatever the clocks', () => {
    assert.deepEqual(slaColumnsOf(null, [clock('first_response', { breached_at: '2026-11-21T11:00:01.000Z' })]), NO_SLA);
  });

  it('is active before any clock starts', () => {
    assert.deepEqual(slaColumnsOf(POLICY, []), { ...NO_SLA, sla_policy_id: POLICY, sla_status: 'active' });
  });

  it('shows the latest run of each target and the earliest due time of a running clock', () => {
    const columns = slaColumnsOf(POLICY, [
      clock('first_response', { stopped_at: '2026-11-21T10:30:00.000Z', outcome: 'hit' }),
      clock('resolution', { due_at: '2026-11-22T10:00:00.000Z' }),
      clock('next_response', { due_at: '2026-11-21T12:00:00.000Z', stopped_at: '2026-11-21T11:00:00.000Z', outcome: 'hit' }),
      clock('next_response', { due_at: '2026-11-21T13:00:00.000Z' }),
    ]);
    assert.equal(columns.sla_first_response_due_at, '2026-11-21T11:00:00.000Z');
    assert.equal(columns.sla_next_response_due_at, '2026-11-21T13:00:00.000Z');
    assert.equal(columns.sla_due_at, '2026-11-21T13:00:00.000Z');
    assert.equal(columns.sla_status, 'active');
  });

  it('lists each breached target once, in the order they breached, for good', () => {
    const columns = slaColumnsOf(POLICY, [
      clock('resolution', { breached_at: '2026-11-21T12:00:00.000Z' }),
      clock('next_response', { breached_at: '2026-11-21T11:30:00.000Z', stopped_at: '2026-11-21T11:40:00.000Z', outcome: 'missed' }),
      clock('next_response', { breached_at: '2026-11-21T12:30:00.000Z' }),
    ]);
    assert.deepEqual(JSON.parse(columns.sla_breaches), ['next_response', 'resolution']);
  });

  it('is missed once nothing runs and any clock missed, hit when all judged ones hit; clocks without a due time count neither way', () => {
    const stopped = { stopped_at: '2026-11-21T10:30:00.000Z' };
    assert.equal(slaColumnsOf(POLICY, [clock('first_response', { ...stopped, outcome: 'hit' }), clock('resolution', { ...stopped, outcome: 'missed' })]).sla_status, 'missed');
    assert.equal(slaColumnsOf(POLICY, [clock('first_response', { ...stopped, outcome: 'hit' }), clock('resolution', { due_at: null })]).sla_status, 'hit');
    assert.equal(slaColumnsOf(POLICY, [clock('first_response', { ...stopped, outcome: null })]).sla_status, 'hit', 'ended by a closing: nothing missed');
    assert.equal(slaColumnsOf(POLICY, [clock('first_response', { due_at: null })]).sla_status, 'active', 'no clock with a due time started yet');
  });
});
