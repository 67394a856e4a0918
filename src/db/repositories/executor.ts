import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A database handle or a transaction: every repository function accepts either. */
export type Executor = Kysely<Database>;

export interface Page {
  limit: number;
  offset: number;
}

export interface PageOf<T> {
  rows: T[];
  total: number;
}
