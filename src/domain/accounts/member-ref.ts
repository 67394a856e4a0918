// A member named in a request body (an issue's or a conversation's assignee_id): a member id of the
// workspace, the literal `me` for the caller's member, or null for nobody.
import type { Executor } from '../../db/repositories/executor.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import { invalidField } from '../../errors.js';
import { parseUuid } from '../../lib/ids.js';
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
