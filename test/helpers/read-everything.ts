// Everything one workspace's credentials can read, derived from the served OpenAPI document:
// every list (largest page) and every seeded resource by id, so a new route is read without
// being named here. The isolation suite compares it before and after its probes; the copy
// round trip compares it between a database and its copy.
import type { Client } from './harness.js';
import { pathParameterResource } from './id-references.js';
import { fillPath, type Operation } from './openapi-operations.js';
import type { SeededIds } from './workspace-seed.js';

export interface Read {
  url: string;
  status: number;
  body: unknown;
  text: string;
}

/** Reads of every operation that answers the same twice: no stream, no document, no fresh challenge, no export (stamped with its time). */
const isStableRead = (op: Operation) => op.method === 'GET' && !op.streams && !/openapi\.json|llms\.txt|\/challenge$|\/export$/.test(op.path);

export async function readEverything(clientFor: (op: Operation) => Client, operations: Operation[], ids: SeededIds): Promise<Read[]> {
  const reads: Read[] = [];
  for (const op of operations.filter(isStableRead)) {
    const pathParameters = op.parameters.filter((p) => p.in === 'path');
    const valuesFor = (first: string) =>
      Object.fromEntries(pathParameters.map((p, i) => [p.name, i === 0 ? first : ids[pathParameterResource(op, p.name)][0]]));
    const urls = pathParameters.length === 0
      ? [`${op.path}${op.parameters.some((p) => p.name === 'limit') ? '?limit=200' : ''}`]
      : ids[pathParameterResource(op, pathParameters[0].name)].map((id) => fillPath(op.path, valuesFor(id)));
    for (const url of urls) {
      const res = await clientFor(op).get(url);
      reads.push({ url, status: res.status, body: res.body, text: res.text });
    }
  }
  return reads;
}
