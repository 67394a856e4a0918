// Before a scenario is measured, the bench proves that the floor answers it as Loopdesk does: reads
// byte for byte, writes with the same answer and the same rows (row counts of every table, the
// changes to the tallies, counters and dedup versions, the events recorded, the row written),
// where only what must differ may differ: ids and timestamps made during the check, a new
// issue's number and dedup stamp, the `{n}` of the request body, and for a deduplicating create
// the matched issue's count of sources and its similarity within 0.01. A mismatch fails the run
// with a diff.
import type { RequestSpec } from './load.js';
import { openStore, type Row, type Store } from './floor/store.js';

export class FloorMismatch extends Error {}

interface Target {
  name: string;
  baseUrl: string;
}

interface Sent {
  status: number;
  body: string;
}

/** Tables whose whole content a write may change and the check compares: key columns → the counted column. */
const COUNTED_TABLES: Record<string, { keys: string[]; value: string }> = {
  issue_tallies: { keys: ['workspace_id', 'product_id', 'status', 'priority', 'assignee_key'], value: 'issue_count' },
  issue_counters: { keys: ['workspace_id', 'prefix'], value: 'last_number' },
  dedup_versions: { keys: ['product_id'], value: 'version' },
};
/** Tables whose rows named by the answer's `data.id` or the path's id are compared after a write. */
const WRITTEN_TABLES = ['issues', 'messages', 'conversations', 'releases'];
/** Requests of a pool checked per scenario: its first, middle and last. */
const SAMPLES = 3;
/** The `{n}` of each write call of a check: distinct, and long enough to appear nowhere else. */
const COUNTER_BASE = 987_650_000;
/**
 * How far two processes' lexical scores of one report may differ: each index's weights are a
 * snapshot refreshed once 1/64 of its documents changed, at times of its own (0.0025 at most
 * seen at 1k open issues, 0.0003 at 10k).
 */
const SCORE_DRIFT = 0.01;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const uuidv7Ms = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

/** Sends the request with `{n}` as `n`. */
async function send(target: Target, spec: RequestSpec, key: string, n = COUNTER_BASE): Promise<Sent> {
  const response = await fetch(`${target.baseUrl}${spec.path}`, {
    method: spec.method,
    headers: { authorization: `Bearer ${spec.token ?? key}`, ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: spec.body?.replaceAll('{n}', String(n)),
  });
  return { status: response.status, body: await response.text() };
}

/** Where two JSON values differ, except for values made during the check (from `since`, in ms). */
function differences(a: unknown, b: unknown, since: number, path = '$'): string[] {
  if (a === b) return [];
  if (typeof a === 'string' && typeof b === 'string') {
    const fresh = (UUID.test(a) && UUID.test(b) && uuidv7Ms(a) >= since && uuidv7Ms(b) >= since) ||
      (ISO.test(a) && ISO.test(b) && Date.parse(a) >= since && Date.parse(b) >= since) ||
      (path.endsWith('.shortcode') && a.split('-')[0] === b.split('-')[0]);
    if (fresh) return [];
  }
  if (typeof a === 'number' && typeof b === 'number') {
    // A deduplicating create's matched issue counts every call that reported it: Loopdesk's second call also the floor's.
    if (path === '$.answer.data.sources_count' && a === b + 1) return [];
    // An issue's dedup stamp is the product's version its write moved to: Loopdesk's call came after the floor's.
    if (/^\$\.written\.issues #\d+\.dedup_version$/.test(path) && a === b + 1) return [];
    // A lexical similarity depends on when the process's index last refreshed its weights (src/dedup/lexical-index.ts).
    if (path.endsWith('.score') && Math.abs(a - b) <= SCORE_DRIFT) return [];
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((item, i) => differences(item, b[i], since, `${path}[${i}]`));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const [keysA, keysB] = [Object.keys(a), Object.keys(b)];
    if (keysA.join() !== keysB.join()) return [`${path}: fields ${keysA.join(',')} against ${keysB.join(',')}`];
    return keysA.flatMap((key) => differences((a as Row)[key], (b as Row)[key], since, `${path}.${key}`));
  }
  const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 300);
  return [`${path}: ${shown(a)} against ${shown(b)}`];
}

/** The text around the first byte where two bodies differ. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, i - 80), i + 80));
  return `first difference at byte ${i}:\n  Loopdesk: ${around(a)}\n  floor:    ${around(b)}`;
}

/** What a write can be seen to have done: every table's row count, the counted tables' content, the newest event ids. */
async function snapshot(store: Store, tables: string[]) {
  const counts = new Map<string, number>();
  for (const table of tables) counts.set(table, Number((await store.one<{ n: number }>(`select count(*) as n from ${table}`, []))!.n));
  const counted = new Map<string, number>();
  for (const [table, { keys, value }] of Object.entries(COUNTED_TABLES)) {
    for (const row of await store.all(`select ${[...keys, value].join(', ')} from ${table}`, [])) {
      counted.set(`${table} ${keys.map((key) => row[key]).join(' ')}`, Number(row[value]));
    }
  }
  return { counts, counted };
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;
const SETTLE_POLL_MS = 100;

/**
 * Waits until no table's row count moves between two looks: a load that just ended may leave
 * writes in flight in either server (a request autocannon stopped waiting for still commits).
 */
async function settled(store: Store, tables: string[]): Promise<void> {
  let last = '';
  for (;;) {
    const now = JSON.stringify([...(await snapshot(store, tables)).counts]);
    if (now === last) return;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/**
 * A write's effect, as JSON-comparable values: row-count changes, counted changes, its events, its
 * row; the call's `n` written back as `{n}` wherever it shows, and the call's before it as `{n-1}`.
 */
async function effectOf(store: Store, tables: string[], before: Snapshot, spec: RequestSpec, n: number, answer: Sent) {
  const after = await snapshot(store, tables);
  const rowsAdded = Object.fromEntries(tables.map((table) => [table, after.counts.get(table)! - before.counts.get(table)!]).filter(([, n]) => n !== 0));
  const countedChanges = Object.fromEntries(
    [...after.counted].map(([key, value]) => [key, value - (before.counted.get(key) ?? 0)] as const).filter(([, delta]) => delta !== 0),
  );
  const newEvents = rowsAdded.events ?? 0;
  const events = (await store.all<{ type: string; payload: string }>('select type, payload from events order by id desc limit ?', [newEvents]))
    .reverse().map(({ type, payload }) => ({ type, payload: JSON.parse(payload) }));
  const named = [(JSON.parse(answer.body) as { data?: { id?: string } }).data?.id, ...spec.path.split('/')];
  const ids = [...new Set(named.filter((id): id is string => id !== undefined && UUID.test(id)))];
  const written: Row = {};
  for (const table of WRITTEN_TABLES) {
    for (const [i, id] of ids.entries()) {
      const row = await store.one(`select * from ${table} where id = ?`, [id]);
      if (row) written[`${table} #${i}`] = row;
    }
  }
  const effect = { status: answer.status, answer: JSON.parse(answer.body), rowsAdded, countedChanges, events, written };
  return JSON.parse(JSON.stringify(effect).replaceAll(String(n), '{n}').replaceAll(String(n - 1), '{n-1}')) as unknown;
}

function pooledSamples(requests: RequestSpec[]): RequestSpec[] {
  const indexes = [0, Math.floor(requests.length / 2), requests.length - 1];
  return [...new Set(indexes)].slice(0, SAMPLES).map((i) => requests[i]!);
}

export interface FloorCheckJob {
  loopdesk: Target;
  floor: Target;
  key: string;
  requests: RequestSpec[];
  writes: boolean;
  databaseUrl: string;
}

/**
 * Null when the floor answers the scenario as Loopdesk does; the floor's reason when it does not
 * answer the scenario at all (501). Throws FloorMismatch, with the differences, otherwise.
 */
export async function checkFloor({ loopdesk, floor, key, requests, writes, databaseUrl }: FloorCheckJob): Promise<string | null> {
  const samples = pooledSamples(requests);
  const probe = samples[0]!;
  if (!writes) {
    for (const spec of samples) {
      const [theirs, ours] = [await send(loopdesk, spec, key), await send(floor, spec, key)];
      if (ours.status === 501) return (JSON.parse(ours.body) as { detail: string }).detail;
      if (theirs.status !== ours.status || theirs.body !== ours.body) {
        throw new FloorMismatch(`${spec.method} ${spec.path}: status ${theirs.status} against ${ours.status}; ${firstDifference(theirs.body, ours.body)}`);
      }
    }
    return null;
  }
  const store = openStore(databaseUrl);
  try {
    // FTS5's own storage (search_index_*) merges segments as it likes: its row counts are not the write's effect.
    const tables = (await store.tableNames()).filter((table) => !table.startsWith('search_index_'));
    await settled(store, tables);
    let n = COUNTER_BASE;
    for (const spec of samples) {
      // Loopdesk first, so that the floor and Loopdesk's second call each find the state one such call left (a PATCH that
      // set a priority once changes only the comment the second time, and its `previous` names that call's values).
      const since = Date.now();
      await send(loopdesk, spec, key, ++n);
      const floorBefore = await snapshot(store, tables);
      const ours = await send(floor, spec, key, ++n);
      if (ours.status === 501) return (JSON.parse(ours.body) as { detail: string }).detail;
      const floorEffect = await effectOf(store, tables, floorBefore, spec, n, ours);
      const loopdeskBefore = await snapshot(store, tables);
      const loopdeskEffect = await effectOf(store, tables, loopdeskBefore, spec, ++n, await send(loopdesk, spec, key, n));
      const found = differences(loopdeskEffect, floorEffect, since);
      if (found.length) {
        throw new FloorMismatch(`${spec.method} ${spec.path} (Loopdesk against the floor):\n  ${found.slice(0, 20).join('\n  ')}`);
      }
    }
    return null;
  } finally {
    await store.close();
  }
}
