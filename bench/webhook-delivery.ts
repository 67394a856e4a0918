// Webhook delivery by `bin/loopdesk.js serve` to a receiver in this process (node:http on
// 127.0.0.1, answering 204 at once, checking a sample of signatures with standardwebhooks):
// - throughput: a backlog of N events recorded before the server starts, drained to one endpoint
//   (events per second from the first arrival to the last);
// - latency: events committed one per transaction at a steady rate while the server runs, from
//   the commit to the arrival (p50, p99), with the default poll interval.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/webhook-delivery.ts [--db sqlite|postgres] [backlog] [paced events]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_DEFAULTS } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';
import type { Actor } from '../src/domain/accounts/actor.js';
import { inTransaction } from '../src/domain/shared/unit-of-work.js';
import { createServices, type Services } from '../src/services.js';
import { startServer } from '../test/helpers/server-process.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';

const args = process.argv.slice(2);
const dbFlag = args.indexOf('--db');
const db = (dbFlag >= 0 ? args.splice(dbFlag, 2)[1] : 'sqlite') as BenchDb;
const BACKLOG = Number(args[0] ?? 20_000);
const PACED = Number(args[1] ?? 1_000);
const PACED_PER_SECOND = 200;
const SAMPLE_EVERY = 100;

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

interface Receiver {
  url: string;
  /** Arrival time (performance.now) of each event number, first arrival only. */
  arrivals: Map<number, number>;
  duplicates: number;
  setSecret(secret: string): void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<number, number>();
  let duplicates = 0;
  let verifier: Webhook | null = null;
  let received = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      if (++received % SAMPLE_EVERY === 0) verifier!.verify(body, request.headers as Record<string, string>);
      const { number } = JSON.parse(body).data;
      if (arrivals.has(number)) duplicates++;
      else arrivals.set(number, at);
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    get duplicates() {
      return duplicates;
    },
    setSecret: (secret) => {
      verifier = new Webhook(secret);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A workspace with an owner's key and an endpoint at the receiver. */
async function seedEndpoint(services: Services, receiverUrl: string): Promise<{ actor: Actor; secret: string }> {
  const workspace = await services.admin.createWorkspace('Webhook bench');
  const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
  const key = await services.admin.createKey({ workspaceId: workspace.id, memberId: owner.id });
  const actor: Actor = { workspaceId: workspace.id, apiKeyId: key.id, credentialId: key.id, readOnly: false, member: owner };
  const { secret } = await services.webhooks.create(actor, { url: receiverUrl, events: ['*'] });
  return { actor, secret };
}

async function record(database: DatabaseHandle, services: Services, workspaceId: string, numbers: number[]): Promise<void> {
  await inTransaction(database.db, async (work) => {
    for (const number of numbers) {
      await services.outbox.record(work, { type: 'issue.updated', workspaceId, data: { number, title: `Event ${number}` }, previous: { title: null } });
    }
  });
}

async function waitFor(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

async function main(): Promise<void> {
  const factory = await databaseFactory(db);
  const receiver = await startReceiver();
  try {
    const databaseUrl = await factory.fresh('webhooks');
    const database = createDatabase(databaseUrl);
    await database.migrate();
    const services = createServices(database, { webhooks: { ...WEBHOOK_DEFAULTS, allowPrivate: true } });
    const { actor, secret } = await seedEndpoint(services, receiver.url);
    receiver.setSecret(secret);
    const numbers = Array.from({ length: BACKLOG }, (_, i) => i);
    for (let start = 0; start < BACKLOG; start += 1000) await record(database, services, actor.workspaceId, numbers.slice(start, start + 1000));
    progress(`${BACKLOG} events recorded on ${db}; starting the server`);

    const server = await startServer({ databaseUrl, env: { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1' } });
    try {
      await waitFor(() => receiver.arrivals.size >= BACKLOG, `${BACKLOG} events delivered`, 600_000);
      const times = [...receiver.arrivals.values()];
      const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
      const throughput = BACKLOG / seconds;

      const latencies: number[] = [];
      for (let i = 0; i < PACED; i++) {
        const number = BACKLOG + i;
        await record(database, services, actor.workspaceId, [number]);
        const committed = performance.now();
        void waitFor(() => receiver.arrivals.has(number), `event ${number}`, 60_000).then(() => latencies.push(receiver.arrivals.get(number)! - committed));
        await sleep(1000 / PACED_PER_SECOND);
      }
      await waitFor(() => latencies.length >= PACED, `${PACED} paced events delivered`, 60_000);
      latencies.sort((x, y) => x - y);
      const warnings = server.process.stdout.split('\n').filter((line) => line.includes('"level":40')).length;
      console.log(`| database | backlog | throughput (events/s) | paced events (${PACED_PER_SECOND}/s) | commit → receipt p50 | p99 | duplicates | warnings logged |`);
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
      console.log(
        `| ${db} | ${BACKLOG} | ${Math.round(throughput)} | ${PACED} | ${Math.round(percentile(latencies, 50))} ms | ` +
          `${Math.round(percentile(latencies, 99))} ms | ${receiver.duplicates} | ${warnings} |`,
      );
    } finally {
      await server.process.stop();
      await database.close();
    }
  } finally {
    await receiver.close();
    factory.dispose();
  }
}

await main();
