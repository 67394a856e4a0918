import { Type } from '@sinclair/typebox';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES, REDACTED } from '../../domain/audit/audit-log.js';
import { CsvFilter, IdFilter, Nullable, PageQuery, StringEnum, Timestamp, Uuid } from './common.js';

const AuditActorSchema = Type.Object(
  {
    type: StringEnum(AUDIT_ACTOR_TYPES, { description: 'member: a session; api_key: a key; rule: an automation rule; system: the server itself (the admin CLI, a backup)' }),
    id: Nullable(Uuid('The member, key or rule; null for the system')),
    name: Nullable(Type.String({ description: 'The member\'s display name or the key\'s label, as they were then' })),
  },
  { additionalProperties: false, description: 'Who acted' },
);

export const AuditLogEntry = Type.Object(
  {
    id: Uuid(),
    actor: AuditActorSchema,
    action: Type.String({ description: `A \`resource.verb\` name, one of: ${AUDIT_ACTIONS.join(', ')}` }),
    target_type: Type.String({ description: `What the entry is about, one of: ${AUDIT_TARGET_TYPES.join(', ')}` }),
    target_id: Nullable(Type.String({ description: 'The id of the record concerned; null when there is none (a backup)' })),
    changes: Nullable(Type.Record(Type.String(), Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2 }), {
      description: `The changed fields only, each as [before, after]; a secret's as ["${REDACTED}", "${REDACTED}"]. Null for a creation, a removal and what changes no field`,
    })),
    ip: Nullable(Type.String({ description: 'The client\'s address, when a request made the change' })),
    user_agent: Nullable(Type.String({ description: 'The client\'s User-Agent, when a request made the change' })),
    created_at: Timestamp(),
  },
  {
    $id: 'AuditLogEntry', additionalProperties: false, description: 'One entry of the audit log',
    examples: [{
      id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e1', actor: { type: 'member', id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093', name: 'Ada' },
      action: 'member.role_changed', target_type: 'member', target_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', changes: { role: ['agent', 'admin'] },
      ip: '203.0.113.7', user_agent: 'Mozilla/5.0', created_at: '2026-11-21T10:25:00.000Z',
    }],
  },
);

export const AuditLogFilterQuery = {
  actor_id: Type.Optional(IdFilter('Only entries made by this member, key or rule (UUID)')),
  action: Type.Optional(CsvFilter('Only these actions', AUDIT_ACTIONS)),
  target_type: Type.Optional(CsvFilter('Only entries about these kinds of record', AUDIT_TARGET_TYPES)),
  from: Type.Optional(Timestamp('Only entries made at or after this instant')),
  to: Type.Optional(Timestamp('Only entries made before this instant')),
};

export const ListAuditLogQuery = Type.Object({ ...AuditLogFilterQuery, ...PageQuery });
export const AuditLogCsvQuery = Type.Object(AuditLogFilterQuery);
