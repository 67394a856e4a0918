// Comma-separated filter parameters: values trimmed, empty items ignored; a value outside the
// enum or an id that is not a well-formed UUID is a validation_error naming the bad value.
import { invalidField } from '../errors.js';
import { parseUuid } from '../lib/ids.js';

function csvItems(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}

/** The listed enum values, or undefined when the filter is absent or empty. */
export function enumFilter<T extends string>(param: string, raw: string | undefined, allowed: readonly T[]): T[] | undefined {
  const items = csvItems(raw);
  const bad = items.find((item) => !allowed.includes(item as T));
  if (bad !== undefined) throw invalidField(param, `"${bad}" is not one of: ${allowed.join(', ')}`);
  return items.length ? [...new Set(items as T[])] : undefined;
}

/**
 * The listed ids (canonical form) and which of the `literals` (e.g. `none`, `me`) were given; more
 * than `max` items is a validation_error.
 */
export function idFilter<L extends string>(param: string, raw: string | undefined, literals: readonly L[] = [], max = Infinity) {
  const items = csvItems(raw);
  if (items.length > max) throw invalidField(param, `at most ${max} values, got ${items.length}`);
  const ids: string[] = [];
  const given = new Set<L>();
  for (const item of items) {
    if (literals.includes(item as L)) {
      given.add(item as L);
      continue;
    }
    const id = parseUuid(item);
    if (!id) throw invalidField(param, `"${item}" is not a well-formed UUID${literals.length ? ` or one of: ${literals.join(', ')}` : ''}`);
    ids.push(id);
  }
  return { ids, given };
}

/** A single id filter such as product_id; a malformed value is a validation_error. */
export function singleIdFilter(param: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const id = parseUuid(raw.trim());
  if (!id) throw invalidField(param, `"${raw}" is not a well-formed UUID`);
  return id;
}

/** The `tag` filter: the tags' keys (trimmed, lowercase), or undefined when absent or empty. */
export function tagFilter(raw: string | undefined): string[] | undefined {
  const keys = [...new Set(csvItems(raw).map((item) => item.toLowerCase()))];
  return keys.length ? keys : undefined;
}
