// A concurrent write workload against a running server that journals what was acknowledged:
// issue creates and PATCHes, messages, conversation imports, releases and deduplicating creates.
// Each worker sends one request at a time, so at most one write per worker has an unknown fate
// when the server dies; the journal keeps that one apart from the acknowledged ones.
import { createProduct, importConversation } from './factories.js';
import { httpClient } from './http-client.js';

export type WriteKind = 'issue' | 'patch' | 'message' | 'conversation' | 'release' | 'maybe';

export interface Write {
  kind: WriteKind;
  method: string;
  path: string;
  body: Record<string, any>;
  /** The issue a patch addresses, or the ones a release names. */
  issueIds: string[];
}

export interface Acknowledged extends Write {
  status: number;
  response: any;
  /** When the request was sent and answered (performance.now()). */
  sentAt: number;
  answeredAt: number;
}

export interface Journal {
  acknowledged: Acknowledged[];
  /** Writes sent when the connection failed: they may or may not have been applied. */
  unknown: Write[];
  /** Answers that were neither 2xx nor a connection failure. */
  failed: string[];
}

export interface LoadSetup {
  baseUrl: string;
  key: string;
  productIds: string[];
  conversationIds: string[];
}

interface OwnIssue {
  id: string;
  productId: string;
  status: string;
  title: string;
}

const PATCH_STATES = [
  { status: 'in_progress', priority: 'high' },
  { status: 'done', priority: 'low' },
  { status: 'done', priority: 'urgent' },
  { status: 'pending', priority: 'normal' },
];

async function send(setup: LoadSetup, write: Write, journal: Journal): Promise<Acknowledged | null> {
  const sentAt = performance.now();
  try {
    const res = await fetch(`${setup.baseUrl}${write.path}`, {
      method: write.method,
      headers: { authorization: `Bearer ${setup.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(write.body),
    });
    const response = await res.json();
    if (res.status < 200 || res.status >= 300) {
      journal.failed.push(`${write.method} ${write.path} → ${res.status} ${JSON.stringify(response).slice(0, 300)}`);
      return null;
    }
    const acknowledged = { ...write, status: res.status, response, sentAt, answeredAt: performance.now() };
    journal.acknowledged.push(acknowledged);
    return acknowledged;
  } catch {
    journal.unknown.push(write);
    throw new Error('connection lost');
  }
}

/** One worker's sequence of writes, repeated until `running()` turns false or the server goes away. */
async function worker(setup: LoadSetup, index: number, journal: Journal, running: () => boolean): Promise<void> {
  const issues: OwnIssue[] = [];
  const write = (kind: WriteKind, method: string, path: string, body: Record<string, any>, issueIds: string[] = []) =>
    send(setup, { kind, method, path, body, issueIds }, journal);
  try {
    for (let round = 0; running(); round++) {
      const tag = `w${index}-r${round}`;
      const productId = setup.productIds[(index + round) % setup.productIds.length];
      const created = await write('issue', 'POST', '/api/v1/issues', { product_id: productId, title: `Issue ${tag}`, description: `About ${tag}` });
      if (created) issues.push({ id: created.response.data.id, productId, status: 'pending', title: created.response.data.title });

      const open = issues.filter((issue) => issue.status !== 'released');
      const target = open[round % Math.max(open.length, 1)];
      if (target) {
        const state = { ...PATCH_STATES[round % PATCH_STATES.length], title: `Patched ${tag}` };
        if (await write('patch', 'PATCH', `/api/v1/issues/${target.id}`, state, [target.id])) Object.assign(target, state);
      }

      const conversationId = setup.conversationIds[round % setup.conversationIds.length];
      await write('message', 'POST', `/api/v1/conversations/${conversationId}/messages`, { body: `Message ${tag}` });

      if (round % 3 === 2) {
        const done = issues.filter((issue) => issue.status === 'done' && issue.productId === productId);
        const ids = done.map((issue) => issue.id);
        if (await write('release', 'POST', '/api/v1/releases', { product_id: productId, title: `Release ${tag}`, issue_ids: ids }, ids)) {
          for (const issue of done) issue.status = 'released';
        }
      }

      // Alternately a report of a fresh problem and a repeat of this worker's latest issue.
      const repeat = round % 2 === 1 && target && target.status !== 'released' ? target.title : null;
      await write('maybe', 'POST', '/api/v1/issues/maybe', { product_id: productId, title: repeat ?? `Report ${tag} of a unique failure` });

      if (round % 4 === 0) {
        await write('conversation', 'POST', '/api/v1/conversations', {
          product_id: productId, title: `Conversation ${tag}`, contact: { email: `${tag}@example.com` }, body: `Hello from ${tag}`,
        });
      }
    }
  } catch {
    // The server went away: this worker's last write is in `journal.unknown`.
  }
}

/** Two products with a conversation each, for the workers to write to. */
export async function prepareLoad(baseUrl: string, key: string): Promise<LoadSetup> {
  const setup: LoadSetup = { baseUrl, key, productIds: [], conversationIds: [] };
  const api = httpClient(baseUrl, key);
  for (const name of ['Load One', 'Load Two']) {
    const product = await createProduct(api, { name });
    setup.productIds.push(product.id);
    setup.conversationIds.push((await importConversation(api, product.id, { title: `${name} chat` })).id);
  }
  return setup;
}

export interface WriteLoad {
  /** Filled in as answers arrive. */
  journal: Journal;
  /** Resolves once every worker has stopped. */
  finished: Promise<void>;
  /** Resolves once `count` writes have been acknowledged (or the workers have stopped). */
  acknowledged(count: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `workers` workers that write until stopped or the server goes away. */
export function startWriteLoad(setup: LoadSetup, workers: number): WriteLoad {
  const journal: Journal = { acknowledged: [], unknown: [], failed: [] };
  let running = true;
  let stopped = false;
  const finished = Promise.all(Array.from({ length: workers }, (_, index) => worker(setup, index, journal, () => running))).then(() => {
    stopped = true;
  });
  return {
    journal,
    finished,
    async acknowledged(count) {
      while (!stopped && journal.acknowledged.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async stop() {
      running = false;
      await finished;
    },
  };
}
