// A real webhook receiver in the test process: node:http on 127.0.0.1, recording every request
// (headers and raw body, as a receiver must verify the signature over the exact bytes) and
// answering as the test says: a status, or never (a receiver that hangs).
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How to answer a request: a status code (now or once the promise settles), or `hang` to never answer. */
export type Answer = number | Promise<number> | 'hang';

export interface Receiver {
  /** The receiver's base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  received: ReceivedRequest[];
  /** Changes how later requests are answered (default: 204 to everything). */
  answer(how: (request: ReceivedRequest, index: number) => Answer): void;
  /** Resolves once `done(received)` holds, checked at each request and each cut; rejects after `timeoutMs`. */
  waitUntil(done: (received: ReceivedRequest[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** How many requests were cut by the sender before an answer (hung ones). */
  readonly cut: number;
  /** The most requests that were waiting for their answer at once. */
  readonly peakInFlight: number;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let respond: (request: ReceivedRequest, index: number) => Answer = () => 204;
  let cut = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  const waiters = new Set<() => void>();

  const server = createServer(async (request, response) => {
    const recorded = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: await readBody(request) };
    const index = received.push(recorded) - 1;
    for (const wake of waiters) wake();
    const answer = respond(recorded, index);
    if (answer === 'hang') {
      response.on('close', () => {
        cut++;
        for (const wake of waiters) wake();
      });
      return;
    }
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    const status = await answer;
    inFlight--;
    response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `answered ${status} on purpose` : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(how) {
      respond = how;
    },
    waitUntil(done, what, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: not ${what} within ${timeoutMs} ms (${received.length} requests received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    get cut() {
      return cut;
    },
    get peakInFlight() {
      return peakInFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The payload of a request whose signature `secret` verifies, as the `standardwebhooks` package checks it; throws otherwise. */
export function verified(secret: string, request: ReceivedRequest): { type: string; timestamp: string; data: any } {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  return new Webhook(secret).verify(request.body, headers) as { type: string; timestamp: string; data: any };
}

/** Requests grouped by their `webhook-id` header. */
export function byWebhookId(requests: ReceivedRequest[]): Map<string, ReceivedRequest[]> {
  const groups = new Map<string, ReceivedRequest[]>();
  for (const request of requests) {
    const id = String(request.headers['webhook-id']);
    groups.set(id, [...(groups.get(id) ?? []), request]);
  }
  return groups;
}

/** An answer of `status` after `ms`: a receiver that takes its time. */
export const after = (ms: number, status = 204): Promise<number> => new Promise((resolve) => setTimeout(() => resolve(status), ms));
