// What the front ends' type generators share: the TypeScript types openapi-typescript makes of a
// served OpenAPI document, and fetching that document from a running server.
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** The text of a generated `.d.ts`: `header`, then the types of the served document. */
export async function typesOfDocument(served: OpenAPI3, header: string): Promise<string> {
  // `servers` names whatever origin the document was fetched from: not part of the contract.
  const { servers: _origin, ...document } = served;
  return header + astToString(await openapiTS(document as OpenAPI3));
}

/** GET `path` from the server at `url` (with a key when the document needs one). */
export async function fetchDocument(url: string, path: string, key?: string): Promise<OpenAPI3> {
  const response = await fetch(new URL(path, url), { headers: key ? { authorization: `Bearer ${key}` } : {} });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as OpenAPI3;
}
