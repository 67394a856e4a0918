// Isolation, exhaustively and generated from openapi.json: for every operation and every
// id-bearing path parameter, body field and query filter, workspace B sends workspace A's id.
// Path ids are 404, body references (nested ones too) 400 naming the field, filters match nothing (a reference in the
// query of a write is a 400 naming it), and A's data is unchanged. Operations whose body is not
// JSON (a raw mail, an image) get a sample of their media type. A control request with B's own id must succeed, so a probe cannot pass for the
// wrong reason. A new route or reference field is covered without touching this file.
// The widget API's operations (/widget/v1/openapi.json) are probed the same way by B's visitor on
// B's widget: A's ids, and another visitor's conversation of the same widget, are 404.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { plainMail } from '../helpers/email.js';
import { fieldResource, nestedReferences, pathParameterResource, type Resource } from '../helpers/id-references.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { fillPath, operationsOf, typesOf, type JsonSchema, type Operation } from '../helpers/openapi-operations.js';
import { readEverything } from '../helpers/read-everything.js';
import { seedWorkspace, type SeededIds } from '../helpers/workspace-seed.js';

/** A value that satisfies `schema`, with references taken from `ids`; fails loudly when it cannot. */
function validValue(op: Operation, name: string, schema: JsonSchema, ids: SeededIds): unknown {
  const resource = fieldResource(op, name, schema);
  if (resource) return typesOf(schema).includes('array') ? [ids[resource][0]] : ids[resource][0];
  if (schema.enum) return schema.enum[0];
  const [type] = typesOf(schema).filter((t) => t !== 'null');
  if (type === 'string') {
    const value = schema.format === 'date-time' ? new Date().toISOString() : schema.format === 'email' ? 'probe@example.com' : 'Isolation probe';
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) {
      throw new Error(`${op.operationId}: no value known for required ${name} (pattern ${schema.pattern})`);
    }
    return value;
  }
  if (type === 'integer' || type === 'number') return schema.minimum ?? 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return requiredBody(op, schema, ids);
  throw new Error(`${op.operationId}: no value known for ${name} (${JSON.stringify(schema)})`);
}

/**
 * The required fields, and the first alternative of a `oneOf` or `anyOf` that requires one of
 * several ("body or saved_reply_id", "at least one target").
 */
function requiredBody(op: Operation, schema: JsonSchema, ids: SeededIds): Record<string, unknown> {
  const required = [...(schema.required ?? []), ...(schema.oneOf?.[0]?.required ?? schema.anyOf?.[0]?.required ?? [])];
  return Object.fromEntries(required.map((name) => [name, validValue(op, name, schema.properties![name], ids)]));
}

function pathValues(op: Operation, ids: SeededIds, override: Record<string, string> = {}): Record<string, string> {
  const values = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ids[pathParameterResource(op, p.name)][0]]),
  );
  return { ...values, ...override };
}

/** The body without `last_used_at`, which A's own reads move (once a minute). */
const withoutLastUse = (body: unknown): unknown => JSON.parse(JSON.stringify(body, (name, value) => (name === 'last_used_at' ? undefined : value)));

/** Everything A's credentials can read, without what reading moves (a key's last use). */
const snapshot = async (clientFor: (op: Operation) => Client, operations: Operation[], ids: SeededIds): Promise<unknown[]> =>
  (await readEverything(clientFor, operations, ids)).map(({ url, body }) => [url, withoutLastUse(body)]);

/** A valid body of each non-JSON media type an operation takes. */
const RAW_SAMPLES: Record<string, () => Buffer> = {
  'message/rfc822': () => plainMail({ messageId: `isolation-${randomUUID()}@example.com` }),
  'image/png': () => Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64'),
};

function rawSample(op: Operation): { type: string; bytes: Buffer } | undefined {
  if (op.rawBody === null) return undefined;
  const sample = RAW_SAMPLES[op.rawBody] ?? assert.fail(`${op.operationId}: no sample body of type ${op.rawBody}; add one to RAW_SAMPLES`);
  return { type: op.rawBody, bytes: sample() };
}

interface Probe {
  /** Where the foreign id goes: `path id`, `body issue_ids`, `query product_id`. */
  parameter: string;
  what: string;
  foreign: { url: string; body?: unknown };
  control: { url: string; body?: unknown };
  expect(status: number, body: any): string | null;
  /**
   * A filter's request with an id that names nothing anywhere: what an answer that is not a page
   * of a list (a report's figures) must equal when the filter names another workspace's record.
   */
  nothing?: { url: string };
}

/** Whether a 400 names the field, or one of its items (`assignment.member_ids[0]`). */
const namesField = (res: any, path: string): boolean =>
  Boolean(res.fields?.[path]) || Object.keys(res.fields ?? {}).some((key) => key.startsWith(`${path}[`));

/** An id no workspace has. */
const NOTHING_ID = '00000000-0000-7000-8000-000000000000';

/**
 * An operation that uses up the resource it addresses: a DELETE of it, or accepting or dismissing a
 * suggestion (which may be done once). Each of its controls takes another of B's resources.
 */
const consumesItself = (op: Operation) =>
  (op.method === 'DELETE' && op.path.endsWith('/{id}')) || /\/suggestions\/\{id\}\/(accept|dismiss)$/.test(op.path);

/** B's spare resources already taken by consuming controls, per resource (accept and dismiss share the suggestions). */
type Spares = Partial<Record<Resource, number>>;

/** B's id for a control request: the first, or for a consuming control the next spare one. */
function controlId(op: Operation, resource: Resource, theirs: SeededIds, spares: Spares): Record<string, string> {
  if (!consumesItself(op)) return {};
  const used = (spares[resource] = (spares[resource] ?? 0) + 1);
  const id = theirs[resource][used];
  if (!id) throw new Error(`${op.method} ${op.path}: seed more than ${used} ${resource}s, one for each consuming control`);
  return { id };
}

/** `body` with `name` chosen among the alternatives of a `oneOf` it is one of: the others left out. */
function choosing(schema: JsonSchema, body: Record<string, unknown> | undefined, name: string): Record<string, unknown> {
  const alternatives = (schema.oneOf ?? []).flatMap((branch) => branch.required ?? []);
  if (!alternatives.includes(name)) return { ...body };
  return Object.fromEntries(Object.entries(body ?? {}).filter(([field]) => !alternatives.includes(field)));
}

/** `body` with the value at a dotted path set (the objects on the way copied or made). */
/**
 * `body` with `value` at the dotted `path`; an object on the way that the body does not have yet
 * starts as its schema's required fields (a product's `assignment` needs its mode and capacity).
 */
function withNested(op: Operation, schema: JsonSchema, ids: SeededIds, body: Record<string, unknown> | undefined, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...body, [head!]: value };
  const property = schema.properties![head!]!;
  const objectSchema = property.properties ? property : property.anyOf!.find((branch) => branch.properties)!;
  const inner = (body?.[head!] as Record<string, unknown> | undefined) ?? requiredBody(op, objectSchema, ids);
  return { ...body, [head!]: withNested(op, objectSchema, ids, inner, rest.join('.'), value) };
}

/** The operation's required query parameters but `except`, with valid values: `name=value` each. */
const requiredQuery = (op: Operation, ids: SeededIds, except?: string): string[] =>
  op.parameters.filter((p) => p.in === 'query' && p.required && p.name !== except)
    .map((p) => `${p.name}=${encodeURIComponent(String(validValue(op, p.name, p.schema, ids)))}`);

function probesFor(op: Operation, ours: SeededIds, theirs: SeededIds, spares: Spares = {}): Probe[] {
  const nested = op.body ? nestedReferences(op, op.body) : [];
  // Only operations with something to probe send a body: a create without references has none.
  const hasProbes = op.parameters.some((p) => p.in === 'path' || fieldResource(op, p.name, p.schema)) ||
    Object.entries(op.body?.properties ?? {}).some(([name, schema]) => fieldResource(op, name, schema)) || nested.length > 0;
  const body = op.body && hasProbes ? requiredBody(op, op.body, theirs) : undefined;
  // A path probe sends the operation's required query parameters (a due time's `seconds`).
  const pathQuery = requiredQuery(op, theirs).map((pair, i) => `${i === 0 ? '?' : '&'}${pair}`).join('');
  const probes: Probe[] = [];
  for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
    const resource = pathParameterResource(op, parameter.name);
    // The widget key names the tenant, as the API key does: the probes send it as B's own.
    if (resource === 'widget') continue;
    const id = ours[resource][0];
    const foreignIds = [
      id, id.toUpperCase(),
      ...(resource === 'issue' ? [ours.shortcode[0], ours.shortcode[0].toLowerCase()] : []),
      ...(resource === 'visitorConversation' ? [theirs.siblingConversation[0]] : []),
    ];
    for (const foreignId of foreignIds) {
      probes.push({
        parameter: `path ${parameter.name}`,
        what: `path {${parameter.name}} = ${foreignId === theirs.siblingConversation[0] ? 'another visitor\'s conversation' : `A's ${resource}`} ${foreignId}`,
        foreign: { url: fillPath(op.path, pathValues(op, theirs, { [parameter.name]: foreignId })) + pathQuery, body },
        control: { url: fillPath(op.path, pathValues(op, theirs, controlId(op, resource, theirs, spares))) + pathQuery, body },
        expect: (status, res) => (status === 404 && res.error_code === 'not_found' ? null : 'expected 404 not_found'),
      });
    }
  }
  for (const [name, schema] of Object.entries(op.body?.properties ?? {})) {
    const resource = fieldResource(op, name, schema);
    if (!resource) continue;
    const reference = (ids: SeededIds) => (typesOf(schema).includes('array') ? [ids[resource][0]] : ids[resource][0]);
    const url = fillPath(op.path, pathValues(op, theirs));
    const controlUrl = fillPath(op.path, pathValues(op, theirs, op.parameters.some((p) => p.name === 'id') ? controlId(op, pathParameterResource(op, 'id'), theirs, spares) : {}));
    probes.push({
      parameter: `body ${name}`,
      what: `body ${name} = A's ${resource}`,
      foreign: { url, body: { ...choosing(op.body!, body, name), [name]: reference(ours) } },
      control: { url: controlUrl, body: { ...choosing(op.body!, body, name), [name]: reference(theirs) } },
      expect: (status, res) => (status === 400 && namesField(res, name) ? null : `expected 400 with fields.${name}`),
    });
  }
  for (const reference of nested) {
    const value = (ids: SeededIds) => (typesOf(reference.schema).includes('array') ? [ids[reference.resource][0]] : ids[reference.resource][0]);
    const url = fillPath(op.path, pathValues(op, theirs));
    const controlUrl = fillPath(op.path, pathValues(op, theirs, op.parameters.some((p) => p.name === 'id') ? controlId(op, pathParameterResource(op, 'id'), theirs, spares) : {}));
    probes.push({
      parameter: `body ${reference.path}`,
      what: `body ${reference.path} = A's ${reference.resource}`,
      foreign: { url, body: withNested(op, op.body!, theirs, body, reference.path, value(ours)) },
      control: { url: controlUrl, body: withNested(op, op.body!, theirs, body, reference.path, value(theirs)) },
      expect: (status, res) => (status === 400 && namesField(res, reference.path) ? null : `expected 400 with fields.${reference.path}`),
    });
  }
  for (const parameter of op.parameters.filter((p) => p.in === 'query')) {
    const resource = fieldResource(op, parameter.name, parameter.schema);
    if (!resource) continue;
    // The operation's other required parameters (a search's `q`) with valid values.
    const required = requiredQuery(op, theirs, parameter.name).map((pair) => `&${pair}`).join('');
    const url = (ids: SeededIds) => `${fillPath(op.path, pathValues(op, theirs))}?${parameter.name}=${ids[resource][0]}${required}`;
    const names = (status: number, res: any) => (status === 400 && res.fields?.[parameter.name] ? null : `expected 400 with fields.${parameter.name}`);
    const filters = (status: number, res: any) => (status === 200 && res.data?.length === 0 && res.pagination?.total === 0 ? null : 'expected 200 and an empty list');
    probes.push({
      parameter: `query ${parameter.name}`,
      what: `query ${parameter.name} = A's ${resource}`,
      foreign: { url: url(ours) },
      control: { url: url(theirs) },
      expect: op.method === 'GET' ? filters : names,
      ...(op.method === 'GET' ? { nothing: { url: url({ ...theirs, [resource]: [NOTHING_ID] }) } } : {}),
    });
  }
  return probes;
}

/** The request of a probe: its JSON body, or a fresh sample of the operation's other media type. */
function requestOf(op: Operation, { body }: { body?: unknown }) {
  const raw = rawSample(op);
  return raw ? { payload: raw.bytes, headers: { 'content-type': raw.type } } : { body };
}

async function runProbe(b: Client, op: Operation, probe: Probe): Promise<string[]> {
  const foreign = await b.request(op.method, probe.foreign.url, requestOf(op, probe.foreign));
  const problems: string[] = [];
  const nothing = probe.nothing && foreign.body?.pagination === undefined ? await b.request(op.method, probe.nothing.url) : null;
  const problem = nothing
    ? (foreign.status === 200 && foreign.text === nothing.text ? null : `expected 200 and what an id that names nothing gets (${nothing.status} ${nothing.text.slice(0, 200)})`)
    : probe.expect(foreign.status, foreign.body);
  if (problem) problems.push(`${op.method} ${op.path} ${probe.what}: ${problem}, got ${foreign.status} ${foreign.text.slice(0, 300)}`);
  const control = await b.request(op.method, probe.control.url, requestOf(op, probe.control));
  if (control.status >= 300) problems.push(`${op.method} ${op.path} ${probe.what}: the control with B's own id failed: ${control.status} ${control.text.slice(0, 300)}`);
  return problems;
}

describe('the isolation suite\'s coverage', () => {
  it('fails loudly on an id-bearing parameter or field it does not know how to fill', () => {
    const op: Operation = {
      operationId: 'newRoute', method: 'POST', path: '/api/v1/gadgets/{id}', deprecated: false, statuses: [201], streams: false,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      body: { type: 'object', properties: { gadget_id: { type: 'string', format: 'uuid' } } }, rawBody: null, bodyRequired: true,
    };
    assert.throws(() => probesFor(op, {} as SeededIds, {} as SeededIds), /does not know which resource/);
    assert.throws(() => fieldResource(op, 'gadget_id', { type: 'string' }), /does not know which resource/);
  });
});

describeEachDialect('workspace isolation, for every route of openapi.json', (ctx) => {
  it('refuses every foreign id in every path, body and filter, and leaves the other workspace untouched', async (t) => {
    const context: TestContext = ctx();
    const { a, b, dialect } = context;
    // /auth acts on credentials (a session, an invitation's token), not on a workspace's ids.
    const operations = [
      ...operationsOf((await a.api.get('/api/v1/openapi.json')).body).filter((op) => op.path.startsWith('/api/v1/')),
      ...operationsOf((await a.api.get('/widget/v1/openapi.json')).body),
    ];
    const ours = await seedWorkspace(a, 'A', 1, context);
    const theirs = await seedWorkspace(b, 'B', 1, context);
    // Widget operations are made by a visitor of the workspace's widget, the others with its key.
    const isWidget = (op: Operation) => op.path.startsWith('/widget/');
    const asA = (op: Operation) => (isWidget(op) ? context.client(ours.visitorToken[0]) : a.api);
    const asB = (op: Operation) => (isWidget(op) ? context.client(theirs.visitorToken[0]) : b.api);
    // Reading moves what reading counts (a widget session's first view of an article): once, before the snapshot.
    await readEverything(asA, operations, ours);
    const before = await snapshot(asA, operations, ours);

    const problems: string[] = [];
    // An injected stream request holds no socket, and the stream's own timers are unref'd: this
    // keeps the process alive until each ends (50 ms, see below).
    const keepAlive = setInterval(() => {}, 1000);
    t.after(() => clearInterval(keepAlive));
    const routes = new Set<string>();
    const pairs = new Set<string>();
    let probes = 0;
    const spares: Spares = {};
    for (const op of operations) {
      for (const probe of probesFor(op, ours, theirs, spares)) {
        problems.push(...(await runProbe(asB(op), op, probe)));
        routes.add(`${op.method} ${op.path}`);
        pairs.add(`${op.method} ${op.path} ${probe.parameter}`);
        probes++;
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(await snapshot(asA, operations, ours), before, "A's data is unchanged");
    t.diagnostic(
      `isolation [${dialect}]: ${pairs.size} route × id pairs on ${routes.size} of ${operations.length} operations, ` +
        `${probes} probes (each with a control request)`,
    );
  });
  // Event streams end after 50 ms here, so that each probe of a stream is answered whole.
}, { streams: { maxStreamMs: 50 } });
