// The named schemas: each is `components.schemas.<$id>` in the OpenAPI document, and every route
// refers to it by `$ref` (Ref in common.ts) instead of repeating it inline.
import { AutomationAction, AutomationCondition, AutomationRule, Macro } from './automation.js';
import { ApiKey, CreatedApiKey, Invitation, InvitationPreview, IssuedInvitation, SignedIn } from './account.js';
import { AuditLogEntry } from './audit-log.js';
import { ErrorBody, Pagination } from './common.js';
import { ContactDetail, ContactExport, ContactProfile } from './contact.js';
import { Attachment, Contact, Conversation, ConversationDetail, ConversationSla, ConversationSlaBreach, ConversationSummary, LastMessage, LinkedIssue, Message, MessageDelivery, MessageEvent } from './conversation.js';
import { InboundResult } from './email.js';
import { Article, ArticlePreview, Collection, FoundArticle } from './help-center.js';
import { KeyMember, Me, Member } from './identity.js';
import { DeduplicatingCreateResult, Issue, IssueListItem } from './issue.js';
import { IdentitySecret, Product } from './product.js';
import { Release, ReleaseDetail, ReleaseIssue, ReleaseProduct } from './release.js';
import { Notification, NotificationActor } from './notification.js';
import { Presence } from './presence.js';
import { SavedReply } from './saved-reply.js';
import { SearchResult } from './search.js';
import { Calendar, CalendarDue, SlaPolicy } from './service-levels.js';
import { IssueBase, Suggestion } from './suggestion.js';
import { TriageCalibration } from './triage-calibration.js';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from './webhook.js';
import { SsoAvailable, SsoSettings } from './sso.js';
import { Tag } from './tag.js';
import { UPDATED_RESOURCES } from './webhook-events.js';
import { AgentReport, ArticleReport, ReportDistribution, ReportSummary, ReportTimeseriesPoint } from './report.js';

export const SHARED_SCHEMAS = [
  ErrorBody, Pagination,
  Member, KeyMember, Me,
  Product, IdentitySecret,
  Contact, Attachment, MessageDelivery, Message, MessageEvent, InboundResult, ConversationSummary, LastMessage, ConversationSla, Conversation, LinkedIssue, ConversationDetail, ConversationSlaBreach, SavedReply,
  ContactProfile, ContactDetail, ContactExport, Tag,
  Calendar, CalendarDue, SlaPolicy,
  ReportDistribution, ReportSummary, ReportTimeseriesPoint, AgentReport, ArticleReport,
  AutomationCondition, AutomationAction, AutomationRule, Macro,
  Issue, IssueListItem, DeduplicatingCreateResult,
  ReleaseProduct, ReleaseIssue, Release, ReleaseDetail,
  IssueBase, Suggestion, TriageCalibration,
  Collection, Article, ArticlePreview, FoundArticle,
  SearchResult,
  NotificationActor, Notification, Presence,
  WebhookEndpoint, WebhookEndpointWithSecret, WebhookDelivery,
  SignedIn, InvitationPreview, IssuedInvitation, Invitation, ApiKey, CreatedApiKey,
  AuditLogEntry,
  SsoSettings, SsoAvailable,
  ...UPDATED_RESOURCES,
];
