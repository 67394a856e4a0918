// A member named in a request body (an issue's or a conversation's assignee_id): a member id of the
// workspace, the literal `me` for the caller's member, or null for nobody.
import type { Dialect } from '../../db/dialect.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import { invalidField } from '../../errors.js';
import { parseUuid } from '../../lib/ids.js';
import { holdLock, sharedRead, type Work } from '../shared/unit-of-work.js';
import type { Actor } from './actor.js';

/** `me`, a member id, or null (nobody). */
export type MemberRef = string | null;

/** The member id `ref` names, checked against the workspace; a bad reference is a validation_error on `field`. */
export async function resolveMemberRef(
  members: Pick<MemberRepository, 'findById'>, actor: Actor, ref: MemberRef, field: string, tx?: Executor,
): Promise<string | null> {
  if (ref === null) return null;
  if (ref === 'me') {
    if (!actor.member) throw invalidField(field, '"me" needs an API key that belongs to a member');
    return actor.member.id;
  }
  const id = parseUuid(ref);
  if (!id || !(await members.findById(actor.workspaceId, id, tx))) throw invalidField(field, 'is not a member of this workspace');
  return id;
}

/**
 * The lock of a member's assignments: every write that makes the member an assignee holds it (after
 * the record's own lock, before its product's), and so does the member's removal, first of all. A
 * removal thus sees every assignment committed before it, and none commits after it. The removal
 * then waits for the locks of the records assigned to the member, whose writers never wait for
 * this one (nothing is assigned to the member it already has): no two wait on each other.
 */
export const memberAssignmentsLock = (memberId: string): string => `member-assignments:${memberId}`;

/**
 * Whether the member still belongs to the workspace, read with their assignments lock held (which
 * their removal takes first): once per transaction that shares its reads (a rule job's runs).
 */
export const memberStillThere = (members: Pick<MemberRepository, 'findById'>, work: Work, workspaceId: string, memberId: string): Promise<boolean> =>
  sharedRead(work, `member:${memberId}`, async () => Boolean(await members.findById(workspaceId, memberId, work.tx)));

/**
 * In a write that makes `assignee` a record's assignee (in place of `previous`): takes the member's
 * assignments lock and checks, under it, that the member still belongs to the workspace (a
 * validation_error on `field` otherwise). The request's own check came before the transaction,
 * and a removal committed since would leave the row to the foreign key's `set null` (past the
 * write units: no event, tallies still counting the member) or fail the write (a 500).
 */
export async function holdAssignee(
  dialect: Pick<Dialect, 'lockKeyInTransaction'>, members: Pick<MemberRepository, 'findById'>, work: Work,
  workspaceId: string, assignee: string | null | undefined, previous: string | null = null, field = 'assignee_id',
): Promise<void> {
  if (!assignee || assignee === previous) return;
  await holdLock(dialect, work, memberAssignmentsLock(assignee));
  if (!(await memberStillThere(members, work, workspaceId, assignee))) throw invalidField(field, 'is not a member of this workspace');
}
