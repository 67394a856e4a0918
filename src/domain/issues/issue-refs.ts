// How requests name issues: wherever the API takes an issue's id it takes its shortcode too
// (`APP-12`, any case), in paths and in bodies alike.
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueKey, IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import { parseUuid } from '../../lib/ids.js';

/** An issue shortcode as a path, a body or a search may name it (case-insensitive), unanchored. */
export const SHORTCODE_PATTERN = '[A-Za-z0-9]{1,3}-[1-9][0-9]{0,15}';
export const SHORTCODE = new RegExp(`^${SHORTCODE_PATTERN}$`);

/** The id or shortcode a reference names; undefined when it is neither. */
export function issueKeyOf(reference: string): IssueKey | undefined {
  const id = parseUuid(reference);
  if (id) return { id };
  return SHORTCODE.test(reference) ? { shortcode: reference.toUpperCase() } : undefined;
}

/**
 * The workspace's issues the references name, each reference (as given) mapped to its row; a
 * reference naming nothing is absent. Two queries however many references.
 */
export async function findIssuesByRefs(
  issues: Pick<IssueRepository, 'findManyByIds' | 'findManyByShortcodes'>,
  workspaceId: string,
  references: readonly string[],
  tx?: Executor,
): Promise<Map<string, IssueRow>> {
  const keys = references.map((reference) => [reference, issueKeyOf(reference)] as const);
  const ids = keys.flatMap(([, key]) => (key && 'id' in key ? [key.id] : []));
  const shortcodes = keys.flatMap(([, key]) => (key && 'shortcode' in key ? [key.shortcode] : []));
  const [byId, byShortcode] = await Promise.all([
    issues.findManyByIds(workspaceId, [...new Set(ids)], tx),
    issues.findManyByShortcodes(workspaceId, [...new Set(shortcodes)], tx),
  ]);
  const rows = new Map([...byId.map((row) => [row.id, row] as const), ...byShortcode.map((row) => [row.shortcode, row] as const)]);
  const found = new Map<string, IssueRow>();
  for (const [reference, key] of keys) {
    const row = key && rows.get('id' in key ? key.id : key.shortcode);
    if (row) found.set(reference, row);
  }
  return found;
}
