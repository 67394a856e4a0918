// platform.md "Roles": settings operations (webhooks, members, API keys, identity secrets) need a
// key whose member is an owner or admin, or a key without a member (an integration key).
import { AppError } from '../errors.js';
import type { Actor } from './actor.js';

export function requireSettingsRole(actor: Actor): void {
  if (actor.member === null || actor.member.role === 'owner' || actor.member.role === 'admin') return;
  throw new AppError('forbidden', `settings need an owner or admin key (or a key without a member); this key's member is an ${actor.member.role}`);
}
