import type { Migration } from 'kysely';
import type { ColumnTypes } from '../dialect.js';
import { init } from './0001_init.js';

/** Every migration, by name; names sort in the order they apply. */
export function migrations(types: ColumnTypes): Record<string, Migration> {
  return {
    '0001_init': init(types),
  };
}
