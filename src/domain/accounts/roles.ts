// docs/accounts.md: settings operations (webhooks, members, API keys, identity secrets) need a
// key or session whose member is an owner or admin, or a key without a member (an integration key).
// Within settings, what touches owners (inviting or making one, changing or removing one, keys
// acting as one or as nobody) needs owner rank: an owner, or an integration key, which stands for
// the workspace itself. So an admin can never raise anyone, themselves included, to an owner's power.
import { AppError } from '../../errors.js';
import type { Actor, MemberRole } from './actor.js';

/** `what` names the settings refused, for the message. */
export function requireSettingsRole(actor: Actor, what = 'settings'): void {
  if (actor.member === null || actor.member.role === 'owner' || actor.member.role === 'admin') return;
  throw new AppError('forbidden', `${what} need an owner or admin (or a key without a member); this ${actor.apiKeyId ? 'key\'s member' : 'member'} is an ${actor.member.role}`);
}

export const hasOwnerRank = (actor: Actor): boolean => actor.member === null || actor.member.role === 'owner';

/** Refuses an admin anything that concerns an owner (`concerned` names what, for the message). */
export function requireOwnerRankFor(actor: Actor, role: MemberRole | null, concerned: string): void {
  if (hasOwnerRank(actor) || (role !== 'owner' && role !== null)) return;
  throw new AppError('forbidden', `only an owner can ${concerned}`);
}
