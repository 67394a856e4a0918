// sharedRuns (src/lib/shared-runs.ts): concurrent asks for one key share a run; a settled run is not kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedRuns } from '../../src/lib/shared-runs.js';

describe('sharedRuns', () => {
  it('joins a run in flight for the same key, starts one per other key, and a new one once it settled', async () => {
    const run = sharedRuns<number>();
    let started = 0;
    const work = async () => ++started;
    assert.deepEqual(await Promise.all([run('a', work), run('a', work), run('b', work)]), [1, 1, 2]);
    assert.equal(await run('a', work), 3);
  });

  it('gives every caller of a run its rejection, then lets the next ask try again', async () => {
    const run = sharedRuns<string>();
    let attempts = 0;
    const failing = async () => {
      attempts++;
      throw new Error('down');
    };
    const results = await Promise.allSettled([run('a', failing), run('a', failing)]);
    assert.deepEqual(results.map((result) => result.status), ['rejected', 'rejected']);
    assert.equal(attempts, 1);
    assert.equal(await run('a', async () => 'up'), 'up');
  });
});
