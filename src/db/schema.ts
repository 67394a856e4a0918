// Row types as repositories see them (after the dialect seam): strings for ids and timestamps,
// 0/1 for booleans, text for JSON.
import type { Generated } from 'kysely';

export interface WorkspaceTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UserTable {
  id: string;
  email: string;
  name: string | null;
  created_at: string;
  /** scrypt (src/domain/accounts/passwords.ts); null until the person sets a password (migration 0009). */
  password_hash: string | null;
}

export interface MemberTable {
  id: string;
  workspace_id: string;
  user_id: string | null;
  role: string;
  display_name: string | null;
  avatar_url: string | null;
  /** `online` | `away` (migration 0041): whether assignment may give the member conversations. */
  availability: string;
  created_at: string;
}

/** A member's own settings (migration 0031, PATCH /api/v1/me); rows made elsewhere start without them. */
export interface MemberSettingsColumns {
  /** Multi-line text below their mailed replies; null: none. */
  signature: string | null;
  /** An IANA time zone; null: UTC. */
  time_zone: string | null;
  notify_email: Generated<number>;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  member_id: string | null;
  label: string | null;
  key_hash: string;
  read_only: number;
  /** 1: a key without a member by design (owner rank); a key whose member_id is null but is not one authenticates as nothing. */
  integration: number;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ProductTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  issue_prefix: string;
  widget_key: string;
  product_key: string;
  widget_config: string | null;
  domain: string | null;
  /** `ids_…`: the HMAC key of the host site's identity tokens (migration 0008); null: none yet. */
  identity_secret: string | null;
  /** `off` | `suggest` | `auto` (migration 0017): what triage does with the product's conversations. */
  triage: string;
  /** The local part of the product's inbound address (migration 0021); unique across workspaces. */
  inbound_name: string;
  /** The help center's public path segment (migration 0035); unique across workspaces. */
  help_slug: string;
  /** 1: the public help center is on (migration 0035). */
  help_center: number;
  /** Moves with every write of the product's articles and collections (migration 0035): keys the public pages' cache. */
  help_version: number;
  /** The assignment settings as JSON text (migration 0041): `{ mode, capacity, member_ids }`. */
  assignment: string;
  /** The member the round robin gave the last conversation to (migration 0041); null: none yet. */
  assignment_cursor: string | null;
  created_at: string;
  updated_at: string;
}

export interface IssueCounterTable {
  workspace_id: string;
  prefix: string;
  last_number: number;
}

export interface IssueTable {
  id: string;
  workspace_id: string;
  product_id: string;
  shortcode: string;
  title: string;
  description: string | null;
  status: string;
  priority: string;
  assignee_id: string | null;
  resolution_comment: string | null;
  is_ai_generated: number;
  /** JSON array of the tag names, in the order given (migration 0019). */
  tags: string;
  created_at: string;
  updated_at: string;
  /** The product's dedup version its creation or last change of title, description or status committed (migration 0024). */
  dedup_version: number | null;
}

export interface ContactTable {
  id: string;
  workspace_id: string;
  name: string | null;
  email: string | null;
  /** A verified contact (migration 0008): the product whose identity secret vouched for `external_id`. */
  identity_product_id: string | null;
  /** The host site's user id (`sub` of its identity token); null for unverified contacts. */
  external_id: string | null;
  /** Lowercase name and email (migration 0019), compared byte by byte: the list's prefix filter. */
  name_key: string | null;
  email_key: string | null;
  /** When the contact last wrote a message (migration 0019); null before their first. */
  last_seen_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationTable {
  id: string;
  workspace_id: string;
  product_id: string;
  contact_id: string | null;
  type: string;
  source: string;
  /** How it came in: chat (the widget), form, email or import (migration 0029). */
  channel: string;
  status: string;
  priority: string;
  title: string;
  ai_summary: string | null;
  rating: number | null;
  upvotes: number;
  /** The widget session that started it (migration 0008): what an unverified visitor may see. */
  widget_session_id: string | null;
  /** A form's extra fields, JSON text (migration 0008). */
  form_fields: string | null;
  /** JSON array of the tag names, in the order given (migration 0019). */
  tags: string;
  /** An email conversation's reply-address token (migration 0021); null for other sources. */
  reply_token: string | null;
  created_at: string;
  updated_at: string;
  /** The member who owns the conversation (migration 0018); null: unassigned. */
  assignee_id: string | null;
  /** The latest message's sender type, excerpt and time (migration 0018); null until the first message. */
  last_message_sender_type: string | null;
  last_message_excerpt: string | null;
  last_message_at: string | null;
  /** The first contact message no agent reply has answered yet (migration 0018); null: nobody waits. */
  waiting_since: string | null;
  /** When the snoozed conversation wakes (migration 0032); null: not snoozed. */
  snoozed_until: string | null;
  /** The SLA applied (migration 0036): its policy (null: none), each target's latest due time, the breached targets (JSON), its status. */
  sla_policy_id: string | null;
  sla_first_response_due_at: string | null;
  sla_next_response_due_at: string | null;
  sla_resolution_due_at: string | null;
  sla_breaches: string;
  sla_status: string | null;
  /** The earliest due time of a running clock (migration 0036): the `due` sort. */
  sla_due_at: string | null;
  /** When the contact's rating was last given (migration 0038): when CSAT counts it; null: not rated. */
  rated_at: string | null;
}

export interface MessageTable {
  id: string;
  workspace_id: string;
  conversation_id: string;
  sender_type: string;
  sender_id: string;
  sender_name: string | null;
  body: string;
  /** The RFC 5322 Message-ID of a message that came or went by mail (migration 0021). */
  email_message_id: string | null;
  /** A mail's whole text, quoted history and signature included; null for other messages. */
  full_body: string | null;
  created_at: string;
  /** 1: an internal note, which the contact never sees (migration 0018). */
  internal: number;
  /**
   * The conversation's report dimensions (migration 0047), copied from it when the row is written and
   * following its assignee, so a filtered report reads no conversation (src/db/repositories/reports/report-dimensions.ts).
   */
  product_id: string;
  type: string;
  source: string;
  assignee_id: string | null;
}

export interface IssueConversationTable {
  issue_id: string;
  conversation_id: string;
  workspace_id: string;
  created_at: string;
}

export interface ReleaseTable {
  id: string;
  workspace_id: string;
  product_id: string;
  title: string;
  description: string | null;
  version: string | null;
  released_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReleaseIssueTable {
  release_id: string;
  issue_id: string;
  workspace_id: string;
  created_at: string;
}

export interface IssueApiSourceTable {
  id: string;
  workspace_id: string;
  issue_id: string;
  /** Null when the call came with a session (migration 0009). */
  api_key_id: string | null;
  /** The member who made the call, when there is one (migration 0009). */
  member_id: string | null;
  title: string;
  description: string | null;
  matched_existing: number;
  score: number | null;
  detector: string;
  /** `maybe` (POST /issues/maybe), `triage` (a person accepted a suggestion) or `triage_auto` (the platform did; migration 0017). */
  origin: string;
  created_at: string;
}

/** What a triage run suggests for a conversation (migration 0017). */
export interface SuggestionTable {
  id: string;
  workspace_id: string;
  product_id: string;
  conversation_id: string;
  kind: string;
  status: string;
  issue_id: string | null;
  title: string | null;
  description: string | null;
  priority: string | null;
  score: number | null;
  /** JSON `[{ issue_id, score }]`, best first. */
  possible_duplicates: string;
  detector: string;
  created_at: string;
  updated_at: string;
}

/** One stored embedding per issue: `vector` holds `dimension` little-endian float32 values. */
export interface IssueEmbeddingTable {
  issue_id: string;
  workspace_id: string;
  product_id: string;
  model: string;
  dimension: number;
  vector: Buffer;
  text_hash: string;
  updated_at: string;
}

/** Bumped by every write to a product's issues; in-memory dedup caches compare it. */
export interface DedupVersionTable {
  product_id: string;
  workspace_id: string;
  version: number;
}

/** Whose Idempotency-Key a record holds (migration 0013): an API key, a team session or a widget session. */
export type CredentialKind = 'api_key' | 'session' | 'widget_session';

export interface IdempotencyRecordTable {
  credential_kind: CredentialKind;
  credential_id: string;
  idempotency_key: string;
  workspace_id: string;
  request_hash: string;
  /** Null while the first request with this key is still in flight. */
  response_status: number | null;
  response_body: string | null;
  created_at: string;
}

/** How many issues share these listing fields (migration 0005). */
export interface IssueTallyTable {
  workspace_id: string;
  product_id: string;
  status: string;
  priority: string;
  /** The assignee's member id, '' for unassigned. */
  assignee_key: string;
  issue_count: number;
}

/** Conversations created and messages per UTC day and report dimensions (migration 0049; src/db/repositories/reports/report-days.ts). */
export interface ReportDayTable {
  workspace_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  product_id: string;
  type: string;
  source: string;
  /** The assignee's member id, '' for unassigned. */
  assignee_key: string;
  /** One of a few rows per key, by the conversation's id: concurrent writers of a busy key share its rows' locks less. */
  slot: number;
  conversations_created: number;
  messages_received: number;
  messages_sent: number;
}

export interface Database {
  workspaces: WorkspaceTable;
  users: UserTable;
  members: MemberTable & MemberSettingsColumns;
  api_keys: ApiKeyTable;
  products: ProductTable;
  issue_counters: IssueCounterTable;
  issues: IssueTable;
  contacts: ContactTable;
  conversations: ConversationTable;
  messages: MessageTable;
  issue_conversations: IssueConversationTable;
  releases: ReleaseTable;
  release_issues: ReleaseIssueTable;
  issue_api_sources: IssueApiSourceTable;
  issue_tallies: IssueTallyTable;
  report_days: ReportDayTable;
  issue_embeddings: IssueEmbeddingTable;
  dedup_versions: DedupVersionTable;
  idempotency_records: IdempotencyRecordTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  announcement_jobs: AnnouncementJobTable;
  conversation_jobs: ConversationJobTable;
  email_jobs: EmailJobTable;
  attachments: AttachmentTable;
  widget_sessions: WidgetSessionTable;
  idea_upvotes: IdeaUpvoteTable;
  used_challenges: UsedChallengeTable;
  server_secrets: ServerSecretTable;
  sessions: SessionTable;
  invitations: InvitationTable;
  sign_in_failures: SignInFailureTable;
  rate_limit_buckets: RateLimitBucketTable;
  suggestions: SuggestionTable;
  record_tags: RecordTagTable;
  tags: TagTable;
  saved_replies: SavedReplyTable;
  calendars: CalendarTable;
  sla_policies: SlaPolicyTable;
  sla_clocks: SlaClockTable;
  notifications: NotificationTable;
  notification_mails: NotificationMailTable;
  help_collections: HelpCollectionTable;
  articles: ArticleTable;
  article_visits: ArticleVisitTable;
  article_passages: ArticlePassageTable;
  help_events: HelpEventTable;
  automation_rules: AutomationRuleTable;
  automation_rule_versions: AutomationRuleVersionTable;
  macros: MacroTable;
  automation_jobs: AutomationJobTable;
  audit_log: AuditLogTable;
  assignment_waits: AssignmentWaitTable;
  sso_configs: SsoConfigTable;
  sso_sign_ins: SsoSignInTable;
}

/** A collection of a product's help center (migration 0035). */
export interface HelpCollectionTable {
  id: string;
  workspace_id: string;
  product_id: string;
  name: string;
  slug: string;
  description: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** A help center article (migration 0035): Markdown as written, and its plain text (excerpt, search, passages). */
export interface ArticleTable {
  id: string;
  workspace_id: string;
  product_id: string;
  collection_id: string | null;
  title: string;
  slug: string;
  body: string;
  body_text: string;
  locale: string;
  translation_of: string | null;
  status: string;
  /** JSON array of the tag names, in the order given. */
  tags: string;
  views: number;
  helpful: number;
  not_helpful: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

/** A widget visitor session's view of and vote on an article (migration 0040): what the article's tallies count. */
export interface ArticleVisitTable {
  article_id: string;
  widget_session_id: string;
  workspace_id: string;
  product_id: string;
  /** When the session first opened the article; null when it voted without opening it. */
  viewed_at: string | null;
  /** 1: helpful, 0: not helpful, null: no vote. */
  helpful: number | null;
  voted_at: string | null;
}

/** A passage of an article's text (migration 0039), with the vector of the model that embedded it. */
export interface ArticlePassageTable {
  article_id: string;
  position: number;
  workspace_id: string;
  product_id: string;
  text: string;
  /** SHA-256 of what is embedded (the title and the passage); the vector is of that text. */
  text_hash: string;
  model: string | null;
  dimension: number | null;
  vector: Buffer | null;
}

/** What a visitor did with the help center (migration 0039): `search`, `answer_shown` or `article_viewed`. */
export interface HelpEventTable {
  id: string;
  workspace_id: string;
  product_id: string;
  kind: string;
  session_id: string | null;
  contact_id: string | null;
  article_id: string | null;
  created_at: string;
  /** 30 minutes after created_at: a conversation started by then means the visitor was not self-served. */
  decided_at: string;
}

export type TaggedRecordType = 'issue' | 'conversation';

/** One tag of one record, by the tag's lowercase key (migration 0019): what the `tag` filter reads. */
export interface RecordTagTable {
  workspace_id: string;
  record_type: TaggedRecordType;
  tag_key: string;
  record_id: string;
}

/** A tag in use in a workspace, with how many records carry it (migration 0019). */
export interface TagTable {
  workspace_id: string;
  tag_key: string;
  name: string;
  conversations: number;
  issues: number;
}

/** A team's saved answer, with placeholders filled when it is posted (migration 0018). */
export interface SavedReplyTable {
  id: string;
  workspace_id: string;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

/** Business hours in a time zone (migration 0034); `hours` and `holidays` are JSON as the API shows them. */
export interface CalendarTable {
  id: string;
  workspace_id: string;
  name: string;
  timezone: string;
  hours: string;
  holidays: string;
  created_at: string;
  updated_at: string;
}

/** An SLA policy (migration 0034): `position` 1…n in its workspace, `active` 0/1, `conditions` JSON. */
export interface SlaPolicyTable {
  id: string;
  workspace_id: string;
  name: string;
  position: number;
  active: number;
  conditions: string;
  first_response_seconds: number | null;
  next_response_seconds: number | null;
  resolution_seconds: number | null;
  calendar_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One run of one SLA clock of a conversation (migration 0036; docs/service-levels.md, "Storage"). */
export interface SlaClockTable {
  id: string;
  workspace_id: string;
  conversation_id: string;
  target: string;
  policy_id: string | null;
  started_at: string;
  due_at: string | null;
  stopped_at: string | null;
  outcome: string | null;
  breached_at: string | null;
  /** What the stopped clock measured (migration 0038), in seconds and in business hours; null while it runs, or a response clock closing stopped. */
  value_seconds: number | null;
  business_seconds: number | null;
  /** The member whose reply stopped a response clock (migration 0038). */
  answered_by: string | null;
  /**
   * The conversation's report dimensions (migration 0047), copied from it when the row is written and
   * following its assignee, so a filtered report reads no conversation (src/db/repositories/reports/report-dimensions.ts).
   */
  product_id: string;
  type: string;
  source: string;
  assignee_id: string | null;
}

/** A visitor's session of a product's widget (migration 0008). */
export interface WidgetSessionTable {
  id: string;
  workspace_id: string;
  product_id: string;
  contact_id: string;
  token_hash: string;
  verified: number;
  name: string | null;
  created_at: string;
  last_used_at: string;
}

/** One contact's upvote of one idea. */
export interface IdeaUpvoteTable {
  conversation_id: string;
  contact_id: string;
  /** Who voted: the contact of a verified visitor, else the visitor's session (src/db/migrations/0015_upvote_voters.ts). */
  voter_id: string;
  workspace_id: string;
  created_at: string;
}

/** An ALTCHA solution already accepted, kept until its challenge expires. */
export interface UsedChallengeTable {
  signature: string;
  expires_at: string;
}

/** Secrets the server generates for itself once and shares between its processes. */
export interface ServerSecretTable {
  name: string;
  value: string;
  created_at: string;
}

/** The outbox (migration 0006): one row per committed change. */
export interface EventTable {
  id: string;
  workspace_id: string;
  type: string;
  /** JSON `{ type, timestamp, data }`, the payload as delivered. */
  payload: string;
  created_at: string;
  /** When the dispatcher created its deliveries; null until then. */
  fanned_out_at: string | null;
}

export interface WebhookEndpointTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string | null;
  enabled: number;
  secret: string;
  /** The secret before the last rotation, still signing beside `secret` until it expires (migration 0010). */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  /** Also the Standard Webhooks `webhook-id`: one per event and endpoint, the same on every retry. */
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A release announcement to make once (migration 0007): a system message or an email. */
export interface AnnouncementJobTable {
  id: string;
  workspace_id: string;
  release_id: string;
  kind: 'message' | 'email';
  /** The conversation (message) or contact (email). */
  target_id: string;
  /** JSON: the message's body and sender name, or the email's recipient, subject and parts. */
  content: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Background work on one conversation, one row per (conversation, kind) while it is due (migration 0016). */
export interface ConversationJobTable {
  id: string;
  workspace_id: string;
  conversation_id: string;
  kind: 'summary' | 'triage' | 'search' | 'wake';
  status: 'pending' | 'failed';
  attempts: number;
  last_error: string | null;
  /** The latest message that asked for the work. */
  requested_at: string;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The delivery of an agent's reply by mail (migration 0021), keyed by its message; `done` means the SMTP server accepted it. */
export interface EmailJobTable {
  id: string;
  workspace_id: string;
  kind: 'reply';
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /** The token of the reply's return path `bounces+{token}@{inbound domain}` (migration 0028); null for a reply never sent and jobs written before. */
  return_path_token: string | null;
}

/** A member told of something in a conversation (migration 0033); it copies no text, only who and where. */
export interface NotificationTable {
  id: string;
  workspace_id: string;
  member_id: string;
  kind: 'assigned' | 'message' | 'mention';
  conversation_id: string;
  actor_member_id: string | null;
  actor_contact_id: string | null;
  created_at: string;
  read_at: string | null;
}

/** A mail to a member about their notifications in one conversation (migration 0033); `created_at` starts its 10-minute window. */
export interface NotificationMailTable {
  id: string;
  workspace_id: string;
  member_id: string;
  conversation_id: string;
  kind: 'notification';
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A file that came with a message (or a visitor's upload), stored by content hash (migration 0021). */
export interface AttachmentTable {
  id: string;
  workspace_id: string;
  message_id: string | null;
  contact_id: string | null;
  sha256: string;
  filename: string;
  content_type: string;
  size: number;
  created_at: string;
}

/** A signed-in person's session in one workspace (migration 0009); the cookie holds the token. */
export interface SessionTable {
  id: string;
  token_hash: string;
  workspace_id: string;
  member_id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A one-time link to join a workspace (migration 0009). */
export interface InvitationTable {
  id: string;
  workspace_id: string;
  /** Null for the first start's owner link: its taker chooses the email. */
  email: string | null;
  role: string;
  token_hash: string;
  invited_by: string | null;
  /** The existing member the invitation hands over (the first start's owner); null: a new member. */
  member_id: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

/** One failed sign-in, for the lockout (migration 0009). */
export interface SignInFailureTable {
  id: string;
  email: string;
  failed_at: string;
}

/** A rate-limit budget shared by the server processes (migration 0012). */
export interface RateLimitBucketTable {
  scope: string;
  subject: string;
  tokens: number;
  /** Epoch milliseconds of the latest lease: the refill is computed in SQL from it. */
  updated_ms: number;
  /** What the latest lease took. */
  last_granted: number;
}

/** An automation rule (migration 0037): `position` 1…n in its workspace, `active` 0/1, `conditions` and `actions` JSON. */
export interface AutomationRuleTable {
  id: string;
  workspace_id: string;
  name: string;
  active: number;
  position: number;
  event: string;
  conditions: string;
  actions: string;
  runs: number;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A workspace's rule-set version (migration 0048): moved by every write of its rules; in-memory rule caches compare it. */
export interface AutomationRuleVersionTable {
  workspace_id: string;
  version: number;
}

/** A macro (migration 0037): `actions` JSON. */
export interface MacroTable {
  id: string;
  workspace_id: string;
  name: string;
  actions: string;
  created_at: string;
  updated_at: string;
}

/** The rules one event is to run (migration 0037): `rule_ids` JSON, `rules_done` of them run. */
export interface AutomationJobTable {
  id: string;
  workspace_id: string;
  conversation_id: string;
  kind: 'rules';
  event_type: string;
  rule_ids: string;
  rules_done: number;
  status: 'pending' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One entry of a workspace's audit log (migration 0042): only ever inserted, and purged by housekeeping. */
export interface AuditLogTable {
  id: string;
  workspace_id: string;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON `{ field: [before, after] }`, or null. */
  changes: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** A new conversation waiting for a free member of its product's assignment (migration 0041). */
export interface AssignmentWaitTable {
  conversation_id: string;
  workspace_id: string;
  product_id: string;
  created_at: string;
}

/** A workspace's OpenID Connect provider (migration 0043, docs/sso.md). */
export interface SsoConfigTable {
  workspace_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  /** JSON array of lowercase domain names. */
  allowed_domains: string;
  default_role: string;
  /** 1: password sign-in is off for everyone but owners. */
  enforce: number;
  created_at: string;
  updated_at: string;
}

/** A sign-in begun at /auth/sso/start, until its callback takes it or it expires (migration 0043). */
export interface SsoSignInTable {
  state_hash: string;
  workspace_id: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}
