// HTTP over a bare TCP socket on loopback, for what no well-behaved client sends: malformed
// request lines and headers, trickled bytes, connections held open.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The first final response in `data` and the bytes it took, once its head and Content-Length
 * body have arrived (interim 1xx responses such as 100 Continue are skipped).
 */
function parseResponse(data: Buffer): [RawResponse, number] | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  if (/^HTTP\/1\.[01] 1\d\d /.test(statusLine)) {
    const final = parseResponse(data.subarray(end + 4));
    return final && [final[0], final[1] + end + 4];
  }
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = data.subarray(end + 4);
  if (body.length < length) return null;
  return [{ status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') }, end + 4 + length];
}

export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Reads the socket until `count` complete responses arrived or the connection closed (resolves
 * those that arrived), or `timeoutMs` passes (rejects: the server hung).
 */
export function readResponses(socket: Socket, count: number, timeoutMs: number): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const responses: RawResponse[] = [];
    const collect = () => {
      for (let parsed = parseResponse(data); parsed; parsed = parseResponse(data)) {
        responses.push(parsed[0]);
        data = data.subarray(parsed[1]);
      }
    };
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.removeAllListeners('data').removeAllListeners('close');
      socket.on('error', () => {});
      if (error) reject(error);
      else resolve(responses);
    };
    const timer = setTimeout(() => finish(new Error(`${responses.length} of ${count} responses within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      collect();
      if (responses.length >= count) finish();
    });
    socket.on('error', () => {});
    socket.on('close', () => finish());
  });
}

/** The first response on the socket, or null when it closed without one. */
export async function readResponse(socket: Socket, timeoutMs: number): Promise<RawResponse | null> {
  return (await readResponses(socket, 1, timeoutMs))[0] ?? null;
}

/** Sends `request` on a new connection and reads the answer; the connection is closed after. */
export async function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse | null> {
  const socket = await openSocket(port);
  try {
    const response = readResponse(socket, timeoutMs);
    socket.write(request);
    return await response;
  } finally {
    socket.destroy();
  }
}
