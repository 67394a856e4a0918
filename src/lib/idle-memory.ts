// Lets V8 give memory back to the system once the server goes quiet (docs/operations.md, "Memory").
//
// After a burst of work (a backlog of summaries and triage, an import, a busy hour) V8 keeps the
// pages its collections freed in a pool, resident, until a memory-reducing collection releases
// them. Its memory reducer runs one when the process has gone quiet: a timer every 8 s asks
// whether the allocation rate is low, and that includes the rate of allocations on the embedder's
// C++ heap (cppgc). Since V8 13.1 (Node 24 and later) a process that has never allocated there
// reports a rate of exactly 0, which the test reads as the highest possible rate: the reducer
// never sees a quiet process, and a server at 100,000 issues stayed at 690 MB where one reducing
// collection brings it to 320 MB. Compiling a script (node:vm) allocates on that heap, and a rate
// that is small but not 0 counts as quiet; it decays to exactly 0 within about 110 s, hence an
// empty script every 30 s. Node 22 (V8 12.4) counts a rate of 0 as 1 byte a millisecond (quiet)
// and needs nothing.
import { Script } from 'node:vm';

const NUDGE_EVERY_MS = 30_000;
const FIRST_AFFECTED_V8_MAJOR = 13;

/** Whether this V8 needs the nudge; its version as `process.versions.v8` gives it. */
export const reducerNeedsNudge = (v8Version: string): boolean => Number(v8Version.split('.')[0]) >= FIRST_AFFECTED_V8_MAJOR;

/**
 * Keeps the memory reducer able to see a quiet process, for as long as the process lives (the
 * timer does not keep it alive). Returns false, doing nothing, where V8 does not need it.
 */
export function returnMemoryWhenIdle(v8Version = process.versions.v8): boolean {
  if (!reducerNeedsNudge(v8Version)) return false;
  const nudge = () => new Script('');
  nudge();
  setInterval(nudge, NUDGE_EVERY_MS).unref();
  return true;
}
