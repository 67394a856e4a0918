// Which V8 versions get the memory reducer's nudge (src/lib/idle-memory.ts); what it does is
// tested in test/reliability/idle-memory.test.ts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { reducerNeedsNudge, returnMemoryWhenIdle } from '../../src/lib/idle-memory.js';

it('nudges V8 13 and later (Node 24 on), not V8 12 (Node 22)', () => {
  assert.equal(reducerNeedsNudge('12.4.254.21-node.33'), false);
  assert.equal(reducerNeedsNudge('13.6.233.17-node.53'), true);
  assert.equal(reducerNeedsNudge('14.6.202.9-node.12'), true);
  assert.equal(returnMemoryWhenIdle('12.4.254.21-node.33'), false);
});
