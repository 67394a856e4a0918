// The live channel (src/events/live.ts) on its own: what the outbox records reaches the
// subscribers once the write commits, filtered by workspace, type and conversation; a rolled-back
// write publishes nothing; close() ends every subscriber. On PostgreSQL, a LISTEN connection
// killed by the server comes back and tells the subscribers to catch up.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import { inTransaction } from '../../src/domain/shared/unit-of-work.js';
import type { LiveEvent, LiveFilter, LiveSubscriber } from '../../src/events/live.js';
import { eventually, numberedEvents } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';

interface Recorder extends LiveSubscriber {
  events: LiveEvent[];
  resyncs: number;
  ended: boolean;
  unsubscribe(): void;
}

async function subscribe(context: TestContext, filter: LiveFilter): Promise<Recorder> {
  const recorder: Recorder = {
    events: [], resyncs: 0, ended: false, unsubscribe: () => {},
    deliver: (event) => recorder.events.push(event),
    resync: () => recorder.resyncs++,
    end: () => (recorder.ended = true),
  };
  recorder.unsubscribe = await context.services.live.subscribe(filter, recorder);
  return recorder;
}

const numbers = (recorder: Recorder) => recorder.events.map((event) => (event.payload.data as { number: number }).number);

describeEachDialect('the live channel', (ctx, dialect) => {
  it('hands a committed write\'s events to the workspace\'s subscriber, with the webhook payload', async () => {
    const context = ctx();
    const recorder = await subscribe(context, { workspaceId: context.a.id });
    const product = await createProduct(context.a.api);
    const conversation = await importConversation(context.a.api, product.id, { body: 'Hello there' });
    const events = await eventually(async () => recorder.events, (all) => all.length === 3, 'three events');
    assert.deepEqual(events.map((event) => event.type), ['product.created', 'conversation.created', 'message.created']);
    const [, created, message] = events;
    assert.deepEqual(created.payload.data, conversation);
    assert.equal(created.conversationId, conversation.id);
    assert.equal(message.conversationId, conversation.id);
    assert.deepEqual(message.payload.data, { ...conversation.messages[0], conversation_id: conversation.id });
    assert.ok(events.every((event) => event.workspaceId === context.a.id && event.payload.type === event.type));
    const stored = await context.database.db.selectFrom('events').select(['id', 'payload']).where('id', '=', message.id).executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(stored.payload), message.payload);
    recorder.unsubscribe();
  });

  it('publishes nothing for a write that rolls back', async () => {
    const context = ctx();
    const recorder = await subscribe(context, { workspaceId: context.a.id });
    await assert.rejects(
      inTransaction(context.database.db, async (work) => {
        for (const event of numberedEvents(context.a.id, 3)) await context.services.outbox.record(work, event);
        throw new Error('the write failed');
      }),
      /the write failed/,
    );
    await inTransaction(context.database.db, (work) => context.services.outbox.record(work, numberedEvents(context.a.id, 1, 100)[0]));
    await eventually(async () => recorder.events, (all) => all.length > 0, 'the committed event');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(numbers(recorder), [100]);
    recorder.unsubscribe();
  });

  it('filters by workspace, type and conversation', async () => {
    const context = ctx();
    const all = await subscribe(context, { workspaceId: context.a.id });
    const other = await subscribe(context, { workspaceId: context.b.id });
    const messages = await subscribe(context, { workspaceId: context.a.id, types: ['message.created'] });
    const product = await createProduct(context.a.api);
    const first = await importConversation(context.a.api, product.id);
    const ofFirst = await subscribe(context, { workspaceId: context.a.id, conversationId: first.id });
    const second = await importConversation(context.a.api, product.id);
    for (const conversation of [first, second]) {
      assert.equal((await context.a.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'A reply' })).status, 201);
    }
    assert.equal((await context.a.api.patch(`/api/v1/conversations/${first.id}`, { status: 'resolved' })).status, 200);
    await createProduct(context.b.api);
    await eventually(async () => all.events, (events) => events.length === 6, 'six events in A');
    await eventually(async () => other.events, (events) => events.length === 1, 'one event in B');
    assert.deepEqual(all.events.map((event) => event.type), [
      'product.created', 'conversation.created', 'conversation.created', 'message.created', 'message.created', 'conversation.updated',
    ]);
    assert.deepEqual(other.events.map((event) => event.type), ['product.created']);
    assert.deepEqual(messages.events.map((event) => event.conversationId), [first.id, second.id]);
    // Subscribed once the first conversation existed: its conversation.created may or may not be delivered after that.
    assert.ok(ofFirst.events.every((event) => event.conversationId === first.id));
    assert.deepEqual(ofFirst.events.map((event) => event.type).filter((type) => type !== 'conversation.created'), ['message.created', 'conversation.updated']);
    for (const recorder of [all, other, messages, ofFirst]) recorder.unsubscribe();
  });

  it('replays what was recorded after an event id, in order and filtered', async () => {
    const context = ctx();
    const recorder = await subscribe(context, { workspaceId: context.a.id });
    await inTransaction(context.database.db, async (work) => {
      for (const event of numberedEvents(context.a.id, 5)) await context.services.outbox.record(work, event);
    });
    await inTransaction(context.database.db, (work) => context.services.outbox.record(work, numberedEvents(context.b.id, 1, 50)[0]));
    await eventually(async () => recorder.events, (all) => all.length === 5, 'five events');
    const replayed: number[] = [];
    for await (const event of context.services.live.replay({ workspaceId: context.a.id }, recorder.events[1].id!)) {
      replayed.push((event.payload.data as { number: number }).number);
    }
    assert.deepEqual(replayed, [2, 3, 4]);
    recorder.unsubscribe();
  });

  if (dialect === 'postgres') {
    it('listens again when its connection is killed, and tells the subscribers to catch up', async () => {
      const context = ctx();
      const recorder = await subscribe(context, { workspaceId: context.a.id });
      const admin = new pg.Client({ connectionString: context.databaseUrl });
      await admin.connect();
      try {
        const killed = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'loopdesk-listen'",
        );
        assert.equal(killed.rowCount, 1, 'one LISTEN connection per process');
      } finally {
        await admin.end();
      }
      await eventually(async () => recorder.resyncs, (resyncs) => resyncs === 1, 'a resync after the reconnection', 10_000);
      await inTransaction(context.database.db, (work) => context.services.outbox.record(work, numberedEvents(context.a.id, 1, 7)[0]));
      await eventually(async () => numbers(recorder), (seen) => seen.includes(7), 'the event recorded after the reconnection');
      recorder.unsubscribe();
    });
  }
});

describeEachDialect('closing the live channel', (ctx) => {
  it('ends every subscriber, and ends later ones at once', async () => {
    const context = ctx();
    const recorder = await subscribe(context, { workspaceId: context.a.id });
    await context.services.live.close();
    assert.equal(recorder.ended, true);
    assert.equal(context.services.live.subscriberCount(), 0);
    const late = await subscribe(context, { workspaceId: context.a.id });
    assert.equal(late.ended, true);
  });
});
