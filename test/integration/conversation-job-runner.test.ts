// The conversation job runner works a backlog through at the jobs' pace, and yields to the event
// loop between claims: on SQLite every statement completes in the microtask queue, so a runner
// that claimed again at once would keep requests (a health check) waiting until the backlog ends.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { conversationJobRepository } from '../../src/db/repositories/conversation-job.repository.js';
import { createConversationJobRunner, JOB_CONCURRENCY } from '../../src/events/conversation-job-runner.js';
import type { ClaimedConversationJob } from '../../src/db/repositories/conversation-job.repository.js';
import { eventually } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';

const clock = manualClock();
const CONVERSATIONS = 12;

describeEachDialect('the conversation job runner', (ctx) => {
  it('answers the event loop between claims while it works through a backlog, and works it all', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    // Each asks for its summary, its triage and its fold: three jobs apiece.
    for (let i = 0; i < CONVERSATIONS; i++) await importConversation(api, product.id, { body: `Question ${i}` });
    clock.advance(24 * 60 * 60 * 1000);
    const { db, dialect } = ctx().database;
    const ran: ClaimedConversationJob[] = [];
    const handler = { leaseMs: 60_000, run: async (job: ClaimedConversationJob) => void ran.push(job) };
    const runner = createConversationJobRunner({
      db, clock, jobs: conversationJobRepository(db, dialect), onError: (error) => assert.fail(String(error)), random: () => 0,
      handlers: { summary: handler, triage: handler, search: handler, wake: handler },
    });
    const started = runner.run();
    // One claim of JOB_CONCURRENCY jobs a turn of the event loop, however many jobs finish in it.
    const perTurn: number[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const before = ran.length;
      await new Promise((resolve) => setImmediate(resolve));
      perTurn.push(ran.length - before);
    }
    assert.ok(perTurn.every((n) => n <= JOB_CONCURRENCY), `jobs run in each of the first turns: ${perTurn.join(', ')}`);
    await started;
    await eventually(async () => ran.length, (n) => n === 3 * CONVERSATIONS, 'every job ran');
    assert.ok(JOB_CONCURRENCY < 3 * CONVERSATIONS);
    await runner.stop(1_000);
  });
}, { clock });
