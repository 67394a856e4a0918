// The candidates' order, (created_at, id), as far as an in-memory copy of a product's candidates
// needs it: an issue created after the newest candidate may be appended without reading them.
import type { Candidate } from './detector.js';

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
