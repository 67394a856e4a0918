// Many concurrent keep-alive clients, each on its own single connection, alternating a page of
// issues and an issue create: the keep-alive test in the suite and bench/keep-alive-rss.ts.
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';

export interface KeepAliveResult {
  requests: number;
  /** Answers that were not 2xx, or failed requests. */
  failures: string[];
  /** TCP connections opened, over all clients (equal to the clients when keep-alive holds). */
  connections: number;
}

function send(agent: Agent, sockets: Set<Socket>, url: URL, key: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: { authorization: `Bearer ${key}`, ...(body && { 'content-type': 'application/json' }) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('socket', (socket) => sockets.add(socket));
    req.on('error', reject);
    req.end(body);
  });
}

/** `clients` clients, each sending `requestsEach` requests one after another. */
export async function runKeepAliveClients(baseUrl: string, key: string, productId: string, clients: number, requestsEach: number): Promise<KeepAliveResult> {
  const result: KeepAliveResult = { requests: 0, failures: [], connections: 0 };
  const list = new URL('/api/v1/issues?limit=50', baseUrl);
  const create = new URL('/api/v1/issues', baseUrl);
  await Promise.all(Array.from({ length: clients }, async (_, client) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<Socket>();
    try {
      for (let i = 0; i < requestsEach; i++) {
        const status = i % 2 === 0
          ? await send(agent, sockets, list, key, 'GET')
          : await send(agent, sockets, create, key, 'POST', JSON.stringify({ product_id: productId, title: `Keep-alive ${client}-${i}` }));
        result.requests++;
        if (status < 200 || status >= 300) result.failures.push(`client ${client}: ${status}`);
      }
    } catch (error) {
      result.failures.push(`client ${client}: ${(error as Error).message}`);
    } finally {
      result.connections += sockets.size;
      agent.destroy();
    }
  }));
  return result;
}
