// A product's assignment settings (docs/automation.md, "Assignment"): `{ mode, capacity, member_ids }`,
// replaced as a whole by PATCH. `member_ids: []` means every member of the workspace.
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import { checkAll, invalidField } from '../../errors.js';
import { parseUuid } from '../../lib/ids.js';

export const ASSIGNMENT_MODES = ['off', 'round_robin', 'balanced'] as const;
export type AssignmentMode = (typeof ASSIGNMENT_MODES)[number];
export const CAPACITY_MAX = 10_000;
export const ASSIGNMENT_MEMBERS_MAX = 500;

export interface AssignmentSettings {
  mode: AssignmentMode;
  /** Open conversations of the product a member may hold before assignment passes them by; null: no limit. */
  capacity: number | null;
  /** The members it assigns to, in turn order; []: every member (oldest first). */
  member_ids: string[];
}

export const DEFAULT_ASSIGNMENT: AssignmentSettings = { mode: 'off', capacity: null, member_ids: [] };

export const parseAssignment = (text: string): AssignmentSettings => ({ ...DEFAULT_ASSIGNMENT, ...(JSON.parse(text) as Partial<AssignmentSettings>) });

/**
 * The settings as stored, after the checks the schema cannot make: each member id a member of the
 * workspace (`assignment.member_ids[i]`), none twice. All problems in one answer.
 */
export async function checkedAssignment(
  members: Pick<MemberRepository, 'findById'>, workspaceId: string, settings: AssignmentSettings, tx?: Executor,
): Promise<string> {
  const ids = settings.member_ids.map((raw) => parseUuid(raw));
  await checkAll<unknown[]>(ids.map((id, index) => async () => {
    const field = `assignment.member_ids[${index}]`;
    if (!id || !(await members.findById(workspaceId, id, tx))) throw invalidField(field, 'is not a member of this workspace');
    if (ids.indexOf(id) < index) throw invalidField(field, 'is listed twice');
  }));
  return JSON.stringify({ mode: settings.mode, capacity: settings.capacity, member_ids: ids });
}
