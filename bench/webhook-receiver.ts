// The receiver of `npm run bench -- --webhooks`: a node:http server in the bench process that
// acknowledges every delivery at once (204) and counts them, so a write scenario can wait until
// the deliveries of its events have all arrived and report how far they lagged.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A drain gives up when no delivery has arrived for this long. */
const QUIET_MS = 5_000;

export interface WebhookReceiver {
  url: string;
  received(): number;
  /**
   * Waits until `count` deliveries have arrived in all (or none arrived for 5 s); the seconds
   * from the call to the last arrival it waited for (0 when they were all there).
   */
  drained(count: number): Promise<number>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let received = 0;
  let lastArrival = performance.now();
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      received++;
      lastArrival = performance.now();
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    async drained(count) {
      const from = performance.now();
      while (received < count && performance.now() - Math.max(lastArrival, from) < QUIET_MS) await sleep(20);
      return received >= count && lastArrival > from ? (lastArrival - from) / 1000 : 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Subscribes an endpoint at `url` to every event of the key's workspace. */
export async function subscribe(baseUrl: string, key: string, url: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['*'] }),
  });
  if (response.status !== 201) throw new Error(`creating the webhook endpoint failed: ${response.status} ${await response.text()}`);
}
