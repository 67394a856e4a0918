// Every list endpoint reads a page past the middle of its list from the other end, in the mirrored
// order (src/db/repositories/paging.ts). Each list here is read whole on its first page, then at
// every limit and offset up to past its end, with its filters and sorts: every page must be the
// same slice of the whole list, in the same order, with the same total. Rows come in pairs with
// equal created_at (the clock moves every other row), so the id's tie-breaking is part of it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { fanOutAll, numberedEvents, recordEvents } from '../helpers/events.js';
import { createIssue, createProduct, createRelease, importConversation, invite } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const ROWS = 7;
const clock = manualClock();

/** Makes `ROWS` rows with `make(i)`, created_at moving forward every other row. */
async function rows<T>(make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let i = 0; i < ROWS; i++) {
    made.push(await make(i));
    clock.advance(i % 2);
  }
  return made;
}

/** A list endpoint: seeds its rows in workspace A, returns the list URLs to read (filters and sorts) and who reads them (A's key unless said). */
interface ListCase {
  name: string;
  seed(ctx: TestContext): Promise<string[] | { paths: string[]; reader: Client }>;
}

const LISTS: ListCase[] = [
  {
    name: 'GET /issues',
    async seed({ a }) {
      const product = await createProduct(a.api);
      await rows(async (i) => {
        const issue = await createIssue(a.api, product.id, {
          status: i % 3 ? 'pending' : 'done', priority: i % 2 ? 'high' : 'low', ...(i % 4 ? {} : { assignee_id: a.owner.id }),
        });
        if (i % 2) assert.equal((await a.api.patch(`/api/v1/issues/${issue.id}`, { tags: ['billing'] })).status, 200);
      });
      const base = `/api/v1/issues?product_id=${product.id}`;
      return [base, `${base}&status=pending`, `${base}&tag=billing`, `${base}&assignee_id=none&priority=low,high`];
    },
  },
  {
    name: 'GET /conversations',
    async seed({ a }) {
      const product = await createProduct(a.api);
      await rows(async (i) => {
        const conversation = await importConversation(a.api, product.id, {
          type: i % 2 ? 'ticket' : 'idea', ...(i % 3 ? { body: `Help ${i}` } : {}), contact: { name: `Pager ${i}`, email: `pager-${i}-${process.pid}@example.com` },
        });
        // An agent's reply ends the wait: sort=waiting has some waiting rows and some that are not.
        if (i % 3 === 1) await a.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'On it' });
        return conversation;
      });
      const base = `/api/v1/conversations?product_id=${product.id}`;
      return [base, `${base}&sort=waiting`, `${base}&type=ticket`, `${base}&type=ticket&sort=waiting`, `${base}&assignee_id=none`];
    },
  },
  {
    name: 'GET /releases',
    async seed({ a }) {
      const product = await createProduct(a.api);
      await rows(() => createRelease(a.api, product.id));
      return ['/api/v1/releases', `/api/v1/releases?product_id=${product.id}`];
    },
  },
  {
    // The conversations' contacts above: "pager-…".
    name: 'GET /contacts',
    seed: async () => ['/api/v1/contacts', '/api/v1/contacts?q=pager'],
  },
  {
    name: 'GET /products',
    async seed({ a }) {
      await rows(() => createProduct(a.api));
      return ['/api/v1/products'];
    },
  },
  {
    name: 'GET /members',
    async seed({ a, services }) {
      await rows((i) => services.admin.createMember({ workspaceId: a.id, name: unique('Member'), role: 'agent', email: `member-${i}-${process.pid}@example.com` }));
      return ['/api/v1/members'];
    },
  },
  {
    name: 'GET /members/invitations',
    async seed({ a }) {
      await rows(() => invite(a.api));
      return ['/api/v1/members/invitations'];
    },
  },
  {
    name: 'GET /api-keys',
    async seed({ a }) {
      await rows((i) => created(a.api, '/api/v1/api-keys', { label: `Key ${i}` }));
      return ['/api/v1/api-keys'];
    },
  },
  {
    name: 'GET /saved-replies',
    async seed({ a }) {
      await rows((i) => created(a.api, '/api/v1/saved-replies', { title: `Reply ${i}`, body: 'Thanks' }));
      return ['/api/v1/saved-replies'];
    },
  },
  {
    name: 'GET /webhooks and GET /webhooks/{id}/deliveries',
    async seed(ctx) {
      const [webhook] = await rows((i) => created(ctx.a.api, '/api/v1/webhooks', { url: `https://hooks.example.com/${i}`, events: ['*'] }));
      await recordEvents(ctx, numberedEvents(ctx.a.id, ROWS));
      await fanOutAll(ctx);
      return ['/api/v1/webhooks', `/api/v1/webhooks/${webhook.id}/deliveries`];
    },
  },
  {
    name: 'GET /widget/v1/{key}/conversations and /ideas',
    async seed(ctx) {
      const product = await widgetProduct(ctx);
      const session = await startSession(ctx, product.widget_key);
      const reader = visitor(ctx, session.token);
      await rows((i) => created(reader, widgetPath(product.widget_key, '/conversations'), { body: `Question ${i}` }));
      const ideas = await rows((i) => importConversation(ctx.a.api, product.id, { type: 'idea', title: `Idea ${i}` }));
      for (const idea of ideas.slice(2, 5)) assert.equal((await reader.post(widgetPath(product.widget_key, `/ideas/${idea.id}/upvote`))).status, 200);
      const paths = ['/conversations', '/ideas', '/ideas?sort=new'].map((path) => widgetPath(product.widget_key, path));
      return { paths, reader };
    },
  },
];

async function created(api: Client, url: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.post(url, body);
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The path with limit and offset appended. */
const paged = (path: string, limit: number, offset: number) => `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`;

describeEachDialect('deep pages of every list', (ctx) => {
  for (const list of LISTS) {
    it(`${list.name}: every page, at every limit and offset, is the same slice of the list as its first page shows it`, async () => {
      const seeded = await list.seed(ctx());
      const { paths, reader } = Array.isArray(seeded) ? { paths: seeded, reader: ctx().a.api } : seeded;
      for (const path of paths) {
        const whole = await reader.get(paged(path, 200, 0));
        assert.equal(whole.status, 200, `${path}: ${whole.text}`);
        const { total } = whole.body.pagination;
        assert.equal(whole.body.data.length, total, path);
        assert.ok(total >= 3, `${path}: only ${total} rows`);
        for (let limit = 1; limit <= total + 1; limit++) {
          for (let offset = 0; offset <= total + 1; offset++) {
            const page = await reader.get(paged(path, limit, offset));
            assert.deepEqual(
              [page.body.data, page.body.pagination],
              [whole.body.data.slice(offset, offset + limit), { total, limit, offset }],
              `${paged(path, limit, offset)}`,
            );
          }
        }
      }
    });
  }
}, { clock });
