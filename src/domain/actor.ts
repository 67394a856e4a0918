/** Who is making a request: the API key, its workspace and the member tied to it. */
export interface Actor {
  workspaceId: string;
  apiKeyId: string;
  readOnly: boolean;
  member: Member | null;
}

export interface Member {
  id: string;
  user_id: string | null;
  role: MemberRole;
  display_name: string | null;
  avatar_url: string | null;
  created_at: string;
}

export const MEMBER_ROLES = ['owner', 'admin', 'agent'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
