// The candidates' order, (created_at, id), as far as an in-memory copy of a product's candidates
// needs it: an issue created after the newest candidate may be appended without reading them; and
// how such a copy catches up with the issues written since its version.
import type { Candidate, CandidateChange } from './detector.js';

/** An issue's place in the candidates' order. */
export type OrderKey = readonly [createdAt: string, id: string];

const NO_CANDIDATES: OrderKey = ['', ''];

export const follows = (key: OrderKey, newest: OrderKey): boolean =>
  key[0] > newest[0] || (key[0] === newest[0] && key[1] > newest[1]);

/** The newest candidate's key (['', ''] when there are none); null when the reader gave no creation times. */
export function newestKey(candidates: readonly Candidate[]): OrderKey | null {
  const newest = candidates.at(-1);
  if (!newest) return NO_CANDIDATES;
  return newest.createdAt === undefined ? null : [newest.createdAt, newest.id];
}

const keyOf = (candidate: Candidate): OrderKey => [candidate.createdAt!, candidate.id];

/** What a copy of a product's candidates does to catch up with the issues written since its version. */
export interface CatchUp {
  /** Issues that are no longer candidates (held or not). */
  readonly closed: readonly string[];
  /** Candidates the copy holds, as written now (their text may have changed): each keeps its place. */
  readonly changed: readonly Candidate[];
  /** Candidates the copy does not hold, oldest first, every one after the newest it holds. */
  readonly added: readonly Candidate[];
}

/**
 * How a copy that holds `held` ids, the newest at `newest`, catches up with `changes`: every
 * candidate written since its version is among them, so the rest of the copy stands. Null when a
 * candidate it does not hold sorts before its newest (a reopened issue, or another process's clock
 * behind): its place in the order needs the whole list, which the copy then reads again.
 */
export function catchUp(changes: readonly CandidateChange[], held: (id: string) => boolean, newest: OrderKey | null): CatchUp | null {
  const closed: string[] = [];
  const changed: Candidate[] = [];
  const added: Candidate[] = [];
  for (const { open, ...candidate } of changes) {
    if (!open) closed.push(candidate.id);
    else (held(candidate.id) ? changed : added).push(candidate);
  }
  added.sort((a, b) => (follows(keyOf(a), keyOf(b)) ? 1 : -1));
  if (added.length > 0 && (!newest || !follows(keyOf(added[0]!), newest))) return null;
  return { closed, changed, added };
}
