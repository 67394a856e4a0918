// A stand-in for the Hugging Face hub (LOOPDESK_MODELS_URL points at it): serves the files of the
// models under a directory (tiny-model.ts writes them) at <url>/<model>/resolve/main/<file>, and
// lets the test decide how each request for a file is answered.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface ModelHost {
  url: string;
  /** `<model>/<file>` of every request so far, in order. */
  readonly requested: string[];
  close(): Promise<void>;
}

/**
 * For the `nth` request (from 1) of `file`: a status to answer instead of the file, or nothing
 * to send the file (or 404 when there is none); the answer waits until the promise settles.
 */
export type Answer = (file: string, nth: number) => Promise<number | void>;

const HUB_PATH = /^\/(.+?)\/resolve\/main\/(.+)$/;

export async function serveModels(modelsDir: string, answer: Answer = async () => {}): Promise<ModelHost> {
  const requested: string[] = [];
  const server = createServer(async (request, response) => {
    const [, model, file] = HUB_PATH.exec(new URL(request.url!, 'http://host').pathname) ?? [];
    if (!model) return response.writeHead(404).end();
    const path = `${model}/${file}`;
    requested.push(path);
    const status = await answer(file, requested.filter((earlier) => earlier === path).length);
    if (status) return response.writeHead(status).end();
    try {
      const body = await readFile(join(modelsDir, model, file));
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requested,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
