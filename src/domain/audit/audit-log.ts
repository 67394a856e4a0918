// Recording an audit entry (docs/audit-log.md): one row in `audit_log`, in the transaction of the
// change it describes, as the outbox records events, so a change that rolls back leaves no entry
// and one that commits always has its entry. A request's actor carries its key or session and
// where the request came from (src/http/plugins/auth.ts), so a write unit hands over the actor it
// was given and never gathers the who and where itself.
import { isDeepStrictEqual } from 'node:util';
import type { AuditLogRepository } from '../../db/repositories/audit/audit-log.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { Clock } from '../../lib/clock.js';
import { newIdAt } from '../../lib/ids.js';
import type { Actor, RequestOrigin } from '../accounts/actor.js';

/** The actions docs/audit-log.md lists: `resource.verb`. */
export const AUDIT_ACTIONS = [
  'member.created', 'member.joined', 'member.role_changed', 'member.removed',
  'invitation.created', 'invitation.withdrawn',
  'api_key.created', 'api_key.revoked',
  'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated',
  'product.created', 'product.updated', 'product.identity_secret_rotated',
  'sla_policy.created', 'sla_policy.updated', 'sla_policy.deleted',
  'calendar.created', 'calendar.updated', 'calendar.deleted',
  'automation_rule.created', 'automation_rule.updated', 'automation_rule.deleted',
  'sso.updated', 'sso.deleted',
  'contact.exported', 'contact.erased',
  'backup.created',
  'auth.signed_in', 'auth.sign_in_failed', 'auth.locked_out', 'auth.password_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about: the resource part of its action. */
export const AUDIT_TARGET_TYPES = [
  'member', 'invitation', 'api_key', 'webhook', 'product', 'sla_policy', 'calendar', 'automation_rule', 'sso', 'contact', 'backup',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_ACTOR_TYPES = ['member', 'api_key', 'system', 'rule'] as const;

/** Who an entry says acted: a member (a session), an API key, an automation rule, or the system (the admin CLI, a backup). */
export interface AuditActor {
  type: (typeof AUDIT_ACTOR_TYPES)[number];
  id: string | null;
  name: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: null };

/** `{ field: [before, after] }`: the changed fields only. */
export type AuditChanges = Record<string, [unknown, unknown]>;

/** What a secret's before and after are shown as: that it changed, never what it is. */
export const REDACTED = '[redacted]';

/** Fields whose values never reach the log, whichever resource has them. */
const SECRET_FIELDS = new Set([
  'secret', 'previous_secret', 'key', 'key_hash', 'password', 'password_hash', 'client_secret', 'identity_secret', 'token', 'token_hash',
]);

/** The fields an entry says changed without their values (a rotated secret, a new password). */
export const redactedChanges = (...fields: string[]): AuditChanges => Object.fromEntries(fields.map((field) => [field, [REDACTED, REDACTED]]));

/**
 * The fields whose values differ between two shapes of one record (as the API shows it, before
 * and after a write), secrets redacted; `updated_at` is no change of its own. Null when none
 * differ. Generic over the fields: a field a resource gains is logged without any change here.
 */
export function changesBetween(before: object, after: object): AuditChanges | null {
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  const changes: AuditChanges = {};
  for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (field === 'updated_at' || isDeepStrictEqual(was[field], is[field])) continue;
    changes[field] = SECRET_FIELDS.has(field) ? [REDACTED, REDACTED] : [was[field] ?? null, is[field] ?? null];
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** How the log names a request's actor: its API key (by its label), else its session's member. */
export function auditActorOf(actor: Actor): AuditActor {
  if (actor.apiKeyId !== null) return { type: 'api_key', id: actor.apiKeyId, name: actor.apiKeyLabel ?? null };
  return { type: 'member', id: actor.member?.id ?? null, name: actor.member?.display_name ?? null };
}

interface EntryFields {
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: string | null;
  /** Null (or absent) for a creation, and for what changes no field (a removal, a sign-in). */
  changes?: AuditChanges | null;
}

/**
 * One entry: made by a request's actor (its workspace, and its origin unless `request` says
 * otherwise), or by a rule, the system or a person signing in, in the workspace named.
 */
export type AuditEntry = EntryFields & (
  | { actor: Actor; request?: RequestOrigin | null }
  | { actor: AuditActor; workspaceId: string; request?: RequestOrigin | null }
);

const isRequestActor = (actor: Actor | AuditActor): actor is Actor => 'workspaceId' in actor;

export interface AuditLogDeps {
  auditEntries: Pick<AuditLogRepository, 'insert'>;
  clock: Clock;
}

export function createAuditLog({ auditEntries, clock }: AuditLogDeps) {
  return {
    /** Records the entries in the transaction given (a write unit's `work`, or `{ tx }`). */
    async record(work: { tx: Executor }, ...entries: AuditEntry[]): Promise<void> {
      const now = clock.now();
      await auditEntries.insert(entries.map((entry) => {
        const requestActor = isRequestActor(entry.actor) ? entry.actor : null;
        const actor = requestActor ? auditActorOf(requestActor) : (entry.actor as AuditActor);
        const origin = entry.request ?? requestActor?.origin ?? null;
        return {
          id: newIdAt(now),
          workspace_id: requestActor ? requestActor.workspaceId : (entry as { workspaceId: string }).workspaceId,
          actor_type: actor.type,
          actor_id: actor.id,
          actor_name: actor.name,
          action: entry.action,
          target_type: entry.target_type,
          target_id: entry.target_id,
          changes: entry.changes ? JSON.stringify(entry.changes) : null,
          ip: origin?.ip ?? null,
          user_agent: origin?.user_agent ?? null,
          created_at: now,
        };
      }), work.tx);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/**
 * `loopdesk backup` (a copy of every workspace): one `backup.created` by the system in each
 * workspace's log, after the copy was checked. The backup itself writes nothing, so its entries
 * have a transaction of their own.
 */
export async function recordBackup(
  { db, audit, workspaces }: { db: Executor; audit: AuditLog; workspaces: { list(tx?: Executor): Promise<{ id: string }[]> } },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const entries = (await workspaces.list(tx)).map(({ id }) => ({
      actor: SYSTEM_ACTOR, workspaceId: id, action: 'backup.created' as const, target_type: 'backup' as const, target_id: null,
    }));
    await audit.record({ tx }, ...entries);
  });
}
