/** Who is making a request: the API key or session, its workspace and the member tied to it. */
export interface Actor {
  workspaceId: string;
  /** The presented API key's id; null when the request came with a session. */
  apiKeyId: string | null;
  /** The presented credential's id, key or session: what rate limits count against. */
  credentialId: string;
  readOnly: boolean;
  /** Always set with a session; with a key, its member or null (an integration key). */
  member: Member | null;
  /** [ext] The presented API key's label: how the audit log names a key. Absent with a session. */
  apiKeyLabel?: string | null;
  /** [ext] Where the request came from, for the audit log (docs/audit-log.md); absent outside a request. */
  origin?: RequestOrigin;
}

/** The client address and User-Agent of a request, as the audit log records them. */
export interface RequestOrigin {
  ip: string | null;
  user_agent: string | null;
}

/** Who a write is made as where a member may be missing: the member, else the API key itself. */
export const actingId = (actor: Actor): string => actor.member?.id ?? actor.credentialId;

export interface Member {
  id: string;
  user_id: string | null;
  role: MemberRole;
  display_name: string | null;
  avatar_url: string | null;
  /** [ext] Whether assignment may give the member conversations (docs/automation.md, "Assignment"). */
  availability: Availability;
  created_at: string;
}

export const AVAILABILITIES = ['online', 'away'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export const MEMBER_ROLES = ['owner', 'admin', 'agent'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
