// The composition root: repositories wired into services. The server (src/main.ts), the admin
// CLI, the tests and the benchmarks all build their services here and hand them to buildApp.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle } from './db/database.js';
import { announcementJobRepository } from './db/repositories/announcement-job.repository.js';
import { attachmentRepository } from './db/repositories/attachment.repository.js';
import { apiKeyRepository } from './db/repositories/api-key.repository.js';
import { contactRepository } from './db/repositories/contact.repository.js';
import { conversationJobRepository } from './db/repositories/conversation-job.repository.js';
import { emailJobRepository } from './db/repositories/email-job.repository.js';
import { embeddingRepository } from './db/repositories/embedding.repository.js';
import { eventRepository } from './db/repositories/event.repository.js';
import { idempotencyRepository } from './db/repositories/idempotency.repository.js';
import { invitationRepository } from './db/repositories/invitation.repository.js';
import { conversationRepository } from './db/repositories/conversation.repository.js';
import { issueRepository } from './db/repositories/issue.repository.js';
import { memberRepository } from './db/repositories/member.repository.js';
import { savedReplyRepository } from './db/repositories/saved-reply.repository.js';
import { calendarRepository } from './db/repositories/service-levels/calendar.repository.js';
import { slaPolicyRepository } from './db/repositories/service-levels/sla-policy.repository.js';
import { slaClockRepository } from './db/repositories/service-levels/sla-clock.repository.js';
import { automationJobRepository } from './db/repositories/automation/automation-job.repository.js';
import { automationRuleRepository } from './db/repositories/automation/automation-rule.repository.js';
import { macroRepository } from './db/repositories/automation/macro.repository.js';
import { messageRepository } from './db/repositories/message.repository.js';
import { notificationRepository } from './db/repositories/notification.repository.js';
import { productRepository } from './db/repositories/product.repository.js';
import { rateLimitRepository } from './db/repositories/rate-limit.repository.js';
import { ideaUpvoteRepository } from './db/repositories/idea-upvote.repository.js';
import { releaseRepository } from './db/repositories/release.repository.js';
import { serverSecretRepository } from './db/repositories/server-secret.repository.js';
import { usedChallengeRepository } from './db/repositories/used-challenge.repository.js';
import { widgetSessionRepository } from './db/repositories/widget-session.repository.js';
import { sessionRepository } from './db/repositories/session.repository.js';
import { ssoRepository } from './db/repositories/sso.repository.js';
import { signInFailureRepository } from './db/repositories/sign-in-failure.repository.js';
import { suggestionRepository } from './db/repositories/suggestion.repository.js';
import { tagRepository } from './db/repositories/tag.repository.js';
import { auditLogRepository } from './db/repositories/audit/audit-log.repository.js';
import { createAuditLog } from './domain/audit/audit-log.js';
import { createAuditLogService } from './domain/audit/audit-log.service.js';
import { articleRepository } from './db/repositories/help-center/article.repository.js';
import { collectionRepository } from './db/repositories/help-center/collection.repository.js';
import { helpEventRepository } from './db/repositories/help-center/help-event.repository.js';
import { passageRepository } from './db/repositories/help-center/passage.repository.js';
import { createAnswerService } from './domain/help-center/answer.service.js';
import { createAnswerWriter } from './domain/help-center/answer-writer.js';
import { createHelpEvents } from './domain/help-center/help-events.js';
import { createArticleService } from './domain/help-center/article.service.js';
import { createCollectionService } from './domain/help-center/collection.service.js';
import { createHelpCenterWrites } from './domain/help-center/help-center-writes.js';
import { createHelpPages } from './domain/help-center/help-pages.service.js';
import { createArticleTallies } from './domain/help-center/article-tallies.js';
import { createWidgetArticles } from './domain/help-center/widget-articles.service.js';
import { articleVisitRepository } from './db/repositories/help-center/article-visit.repository.js';
import { erasureRepository } from './db/repositories/erasure.repository.js';
import { createContactService } from './domain/contacts/contact.service.js';
import { createTagService } from './domain/tags/tag.service.js';
import { operationsRepository } from './db/repositories/operations.repository.js';
import { retentionRepository } from './db/repositories/retention.repository.js';
import { webhookDeliveryRepository } from './db/repositories/webhook-delivery.repository.js';
import { webhookEndpointRepository } from './db/repositories/webhook-endpoint.repository.js';
import { workspaceRepository } from './db/repositories/workspace.repository.js';
import { createAdminService } from './domain/accounts/admin.service.js';
import { createAnnouncementService } from './domain/releases/announcement.service.js';
import { createAccountsLock } from './domain/accounts/accounts-lock.js';
import { createApiKeyService } from './domain/accounts/api-key.service.js';
import { createChangelogService } from './domain/releases/changelog.service.js';
import { createConversationService } from './domain/conversations/conversation.service.js';
import { createPresenceService } from './domain/conversations/presence.service.js';
import { createConversationJobQueue } from './domain/conversations/conversation-jobs.js';
import { createWakeJob } from './domain/conversations/snooze.js';
import { createConversationSummaries, type SummaryObservation } from './domain/conversations/conversation-summary.service.js';
import { createFormService } from './domain/widget/form.service.js';
import { createIdeaService } from './domain/widget/idea.service.js';
import { createIdempotencyService } from './domain/idempotency/idempotency.service.js';
import { createIdentityService } from './domain/accounts/identity.service.js';
import { createIssueDedupService } from './domain/issues/issue-dedup.service.js';
import { createIssueMatcher } from './domain/issues/issue-matcher.js';
import { createIssueService } from './domain/issues/issue.service.js';
import { createInvitationService } from './domain/accounts/invitation.service.js';
import { createIssueWrites } from './domain/issues/issue.writes.js';
import { createMemberService } from './domain/accounts/member.service.js';
import { createNotificationService } from './domain/notifications/notification.service.js';
import { createNotificationWrites } from './domain/notifications/notification.writes.js';
import { createSavedReplyService } from './domain/saved-replies/saved-reply.service.js';
import { createCalendarService } from './domain/service-levels/calendar.service.js';
import { createSlaClocks } from './domain/service-levels/sla-clocks.js';
import { createClockMeasures } from './domain/service-levels/clock-values.js';
import { createReportService } from './domain/reports/report.service.js';
import { createReportRebuild } from './domain/reports/report-rebuild.js';
import { reportRepository } from './db/repositories/reports/report.repository.js';
import { createSlaPolicyService } from './domain/service-levels/sla-policy.service.js';
import { createActionRunner } from './domain/automation/actions.js';
import { createAutomationRuleService } from './domain/automation/automation-rule.service.js';
import { createAutomationChecks } from './domain/automation/automation-vocabulary.js';
import { createMacroService } from './domain/automation/macro.service.js';
import { createRegexRunner } from './domain/automation/regex-safety.js';
import { createRuleCache } from './domain/automation/rule-cache.js';
import { createAutomationRunner } from './events/automation-runner.js';
import { createPasswordHasher, type ScryptParams } from './domain/accounts/passwords.js';
import { createConversationWrites } from './domain/conversations/conversation.writes.js';
import { createAssignment } from './domain/assignment/assignment.js';
import { createAssignmentQueue } from './domain/assignment/assignment-queue.js';
import { assignmentRepository } from './db/repositories/automation/assignment.repository.js';
import { mailFromAddress } from './domain/email/addresses.js';
import { createAttachmentService } from './domain/email/attachment.service.js';
import { createInboundService } from './domain/email/inbound.service.js';
import { createProductService } from './domain/products/product.service.js';
import { createProofOfWork } from './domain/widget/proof-of-work.service.js';
import { createRateLimits } from './domain/rate-limits/rate-limits.js';
import { createVisitorContacts } from './domain/widget/visitor-contacts.js';
import { createVisitorConversationService } from './domain/widget/visitor-conversation.service.js';
import { createScreenshotService } from './domain/widget/screenshot.service.js';
import { createWidgetSessionService } from './domain/widget/widget-session.service.js';
import { createWidgetService } from './domain/widget/widget.service.js';
import { createReleaseService } from './domain/releases/release.service.js';
import { createSearchFoldJob } from './domain/search/search-fold-job.js';
import { createSearchService } from './domain/search/search.service.js';
import { searchRepository } from './db/repositories/search.repository.js';
import { createSessionService } from './domain/accounts/session.service.js';
import { createOidcClient } from './domain/sso/oidc-client.js';
import { createSsoSignIn } from './domain/sso/sso-sign-in.js';
import { createSsoService } from './domain/sso/sso.service.js';
import { createSignInLockout } from './domain/accounts/sign-in-lockout.js';
import { createSuggestionWrites } from './domain/triage/suggestion.writes.js';
import { createTriageJob, TRIAGE_AFTER_SUMMARY_MS } from './domain/triage/triage-job.js';
import { createTriageService, type HeadlineProvider } from './domain/triage/triage.service.js';
import { createWebhookService } from './domain/webhooks/webhook.service.js';
import { createWidgetDemoService } from './domain/widget/widget-demo.service.js';
import { createHousekeeping, type HousekeepingReport } from './domain/housekeeping/housekeeping.js';
import type { DuplicateDetector } from './dedup/detector.js';
import { createLexicalDetector } from './dedup/lexical.js';
import {
  AUDIT_RETENTION_DAYS_DEFAULT, EMAIL_DEFAULTS, EVENT_RETENTION_DAYS_DEFAULT, SEARCH_FOLD_MS_DEFAULT, SUMMARY_DEFAULTS, WEBHOOK_DEFAULTS,
  type EmailConfig, type MailConfig, type StreamConfig, type SummaryConfig, type WebhookConfig,
} from './config.js';
import { createAnnouncer } from './events/announcer.js';
import { createConversationJobRunner } from './events/conversation-job-runner.js';
import { createDispatcher } from './events/dispatcher.js';
import { createSlaBreachWatcher } from './events/sla-breach-watcher.js';
import { createLiveChannel } from './events/live.js';
import { createMailer } from './events/mailer.js';
import { createOutbox } from './events/outbox.js';
import { createNotificationMailer } from './events/notification-mailer.js';
import { createReplyMailer } from './events/reply-mailer.js';
import { createUrlGuard } from './events/ssrf.js';
import { createWebhookSender } from './events/webhook-sender.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createMetrics } from './lib/metrics.js';
import { createRequestPressure } from './lib/request-pressure.js';
import { createAttachmentStore } from './storage/attachment-store.js';
import { createChatModel } from './summaries/chat-model.js';
import { createSummarizer, longestSummaryMs } from './summaries/summarizer.js';

export interface ServiceOptions {
  clock?: Clock;
  /** Reports failures of work done after the response (e.g. recording a key's last use). */
  onBackgroundError?: (error: unknown) => void;
  /** The duplicate detector for POST /issues/maybe; the lexical matcher when not given. */
  detector?: DuplicateDetector;
  /** Titles of triage's create suggestions (a chat model's headline); an issue title from the conversation's text when not given. */
  headline?: HeadlineProvider | null;
  /** Webhook URLs and delivery (LOOPDESK_WEBHOOK*); WEBHOOK_DEFAULTS when not given. */
  webhooks?: WebhookConfig;
  /** Release announcement emails and replies by mail (LOOPDESK_SMTP_URL, …); none are sent when null or not given. */
  mail?: MailConfig | null;
  /** Conversations by mail and attachments (LOOPDESK_INBOUND_DOMAIN, …); no inbound domain and a folder in the system's temporary directory when not given. */
  email?: EmailConfig;
  /** The widget's proof-of-work difficulty (the largest hidden number); DEFAULT_MAX_NUMBER when not given. */
  proofOfWorkMaxNumber?: number;
  /** scrypt's cost for new password hashes; DEFAULT_SCRYPT when not given (tests choose a cheap one). */
  passwordHashing?: ScryptParams;
  /** Server-Sent Event streams (LOOPDESK_SSE_*); STREAM_DEFAULTS when not given. */
  streams?: StreamConfig;
  /** LOOPDESK_EVENT_RETENTION_DAYS; EVENT_RETENTION_DAYS_DEFAULT when not given. */
  eventRetentionDays?: number;
  /** LOOPDESK_AUDIT_RETENTION_DAYS; AUDIT_RETENTION_DAYS_DEFAULT when not given. */
  auditRetentionDays?: number;
  /** Hears of each housekeeping run that deleted something (the server logs it). */
  onHousekeeping?: (report: HousekeepingReport) => void;
  /** Conversation summaries (LOOPDESK_SUMMARY_DEBOUNCE_MS, LOOPDESK_LLM_*), and who hears of each (latency, writer); SUMMARY_DEFAULTS when not given. */
  summaries?: SummaryConfig & { observe?: (observation: SummaryObservation) => void };
  /** LOOPDESK_SEARCH_FOLD_MS; SEARCH_FOLD_MS_DEFAULT when not given. */
  searchFoldMs?: number;
  /** LOOPDESK_DEFAULT_CALENDAR: the calendar (by name) reports count business hours in where no SLA's calendar applies; none when not given. */
  defaultCalendar?: string | null;
  /** Where the team's app is, for links in mail (LOOPDESK_PUBLIC_URL, else the address the server listens on); http://127.0.0.1:3000 when not given. */
  appBase?: string;
  /** How long an OpenID provider may take to answer one request (docs/sso.md); OIDC_TIMEOUT_MS_DEFAULT when not given. */
  ssoTimeoutMs?: number;
}

/** The address of a `Name <address>` or bare From, lowercased. */
const addressOf = (from: string): string => mailFromAddress(from).toLowerCase();

export function createServices(database: DatabaseHandle, options: ServiceOptions = {}) {
  const { db, dialect } = database;
  const clock = options.clock ?? systemClock;
  const repositories = {
    workspaces: workspaceRepository(db),
    members: memberRepository(db),
    apiKeys: apiKeyRepository(db),
    products: productRepository(db),
    issues: issueRepository(db),
    releases: releaseRepository(db),
    conversations: conversationRepository(db),
    contacts: contactRepository(db),
    messages: messageRepository(db),
    embeddings: embeddingRepository(db),
    events: eventRepository(db),
    webhookEndpoints: webhookEndpointRepository(db),
    webhookDeliveries: webhookDeliveryRepository(db, dialect),
    announcementJobs: announcementJobRepository(db, dialect),
    conversationJobs: conversationJobRepository(db, dialect),
    widgetSessions: widgetSessionRepository(db),
    ideaUpvotes: ideaUpvoteRepository(db),
    sessions: sessionRepository(db),
    invitations: invitationRepository(db),
    sso: ssoRepository(db),
    signInFailures: signInFailureRepository(db),
    suggestions: suggestionRepository(db),
    tags: tagRepository(db),
    savedReplies: savedReplyRepository(db),
    calendars: calendarRepository(db),
    slaPolicies: slaPolicyRepository(db),
    slaClocks: slaClockRepository(db),
    automationRules: automationRuleRepository(db),
    macros: macroRepository(db),
    attachments: attachmentRepository(db),
    emailJobs: emailJobRepository(db, dialect),
    notifications: notificationRepository(db, dialect),
    collections: collectionRepository(db),
    articles: articleRepository(db),
    auditEntries: auditLogRepository(db),
    articleVisits: articleVisitRepository(db),
    passages: passageRepository(db),
    helpEvents: helpEventRepository(db),
  };
  const onBackgroundError = options.onBackgroundError ?? (() => {});
  const metrics = createMetrics();
  // Opens its LISTEN connection (PostgreSQL) with the first stream; closed by the server's shutdown, which ends the streams.
  const live = createLiveChannel({ dialect, events: repositories.events, onError: onBackgroundError, settings: options.streams });
  const outbox = createOutbox({ events: repositories.events, live, clock });
  // The audit log's one writer (docs/audit-log.md): every settings write records its entry through it, in its own transaction.
  const audit = createAuditLog({ auditEntries: repositories.auditEntries, clock });
  const detector = options.detector ?? createLexicalDetector();
  // The one write path of each resource written from several services.
  const suggestionWrites = createSuggestionWrites({ dialect, clock, outbox, ...repositories });
  const issueWrites = createIssueWrites({ dialect, clock, detector, outbox, suggestionWrites, ...repositories });
  const search = searchRepository(db, dialect.fullText);
  const summaries: NonNullable<ServiceOptions['summaries']> = options.summaries ?? SUMMARY_DEFAULTS;
  const conversationJobs = createConversationJobQueue({
    dialect, clock, jobs: repositories.conversationJobs,
    delays: { summary: summaries.debounceMs, triage: summaries.debounceMs + TRIAGE_AFTER_SUMMARY_MS, search: options.searchFoldMs ?? SEARCH_FOLD_MS_DEFAULT },
  });
  const mail = options.mail ?? null;
  const notify = createNotificationWrites({ outbox, clock, mailEnabled: mail !== null, ...repositories });
  const clockMeasures = createClockMeasures({ ...repositories, defaultCalendar: options.defaultCalendar ?? null });
  // Fair assignment (docs/automation.md): new conversations are assigned in their write; the queue waits for a member to come free.
  const assignmentState = assignmentRepository(db);
  const assignment = createAssignment({ dialect, assignment: assignmentState, members: repositories.members });
  const conversationWrites = createConversationWrites({
    outbox, jobs: conversationJobs, notify, serviceLevels: createSlaClocks({ ...repositories, measures: clockMeasures }), dialect, clock, ...repositories,
    assignment, onFreed: (workspaceId, productId) => void assignmentQueue.request(workspaceId, productId),
  });
  const assignmentQueue = createAssignmentQueue({
    db, assignment, repo: assignmentState, conversations: repositories.conversations, writes: conversationWrites, onError: onBackgroundError,
  });
  const slaBreaches = createSlaBreachWatcher({ db, clock, onError: onBackgroundError, writes: conversationWrites, ...repositories });
  const email: EmailConfig = options.email ?? {
    inboundDomain: null, smtpListen: null, newConversationsPerSenderHour: EMAIL_DEFAULTS.newConversationsPerSenderHour,
    attachments: { kind: 'folder', dir: join(tmpdir(), 'loopdesk-attachments') }, returnPath: EMAIL_DEFAULTS.returnPath,
  };
  const attachmentStore = createAttachmentStore(email.attachments);
  const attachments = createAttachmentService({ db, store: attachmentStore, attachments: repositories.attachments, onError: onBackgroundError });
  const issues = createIssueService({ db, dialect, clock, writes: issueWrites, ...repositories });
  // Matches reports against open issues: the deduplicating create and triage share it.
  const matcher = createIssueMatcher({ dialect, detector, issues: repositories.issues, dedupStore: repositories.embeddings });
  const webhookConfig = options.webhooks ?? WEBHOOK_DEFAULTS;
  const urlGuard = createUrlGuard({ allowPrivate: webhookConfig.allowPrivate });
  const inbound = createInboundService({
    db, dialect, clock, writes: conversationWrites, store: attachmentStore, ...repositories,
    inboundDomain: email.inboundDomain, ownAddress: mail && addressOf(mail.from), newConversationsPerSenderHour: email.newConversationsPerSenderHour,
  });
  const requestPressure = createRequestPressure();
  const announcer = createAnnouncer({
    db, clock, onError: onBackgroundError, announcementJobs: repositories.announcementJobs,
    announcements: createAnnouncementService({ db, clock, conversationWrites, announcementJobs: repositories.announcementJobs }),
    mailer: mail && createMailer(mail), mailTimeoutMs: mail?.timeoutMs ?? 0, retryScheduleMs: webhookConfig.retryScheduleMs,
  });
  const chatModel = summaries.llm && createChatModel(summaries.llm);
  const triage = createTriageService({
    db, dialect, clock, issueWrites, matcher, suggestionWrites, ...repositories,
    // Without a chat model, create suggestions take an issue title drawn from the conversation's text.
    headline: options.headline ?? (chatModel && (async ({ title, text }) => (await chatModel.summarize({ title, messages: text ? [text] : [] })).headline)),
  });
  // A run takes at most a chat model's answer (the summary, or triage's headline) and the work around it.
  const jobLeaseMs = longestSummaryMs(summaries.llm);
  const conversationJobRunner = createConversationJobRunner({
    db, clock, onError: onBackgroundError, jobs: repositories.conversationJobs,
    handlers: {
      // First: a wake is due at an instant people chose, and quick (a claim's free slots go in this order).
      wake: { leaseMs: jobLeaseMs, retriesUntilDone: true, run: createWakeJob({ db, clock, jobs: conversationJobs, writes: conversationWrites, ...repositories }).run },
      summary: {
        leaseMs: jobLeaseMs,
        run: createConversationSummaries({
          db, clock, writes: conversationWrites, jobs: conversationJobs, ...repositories,
          observe: (observation) => {
            metrics.summarySeconds.observe({ writer: observation.writer }, observation.latencyMs / 1000);
            summaries.observe?.(observation);
          },
          summarizer: createSummarizer({ chatModel, embedder: () => detector.embedder }),
        }).run,
      },
      triage: { leaseMs: jobLeaseMs, run: createTriageJob({ jobs: conversationJobs, triage }).run },
      search: { leaseMs: jobLeaseMs, run: createSearchFoldJob({ db, jobs: conversationJobs, search }).run },
    },
  });
  // Automation (docs/automation.md): rules run from the fanned-out events, macros on request; both act through the conversation write unit.
  const replyMail = mail && { messageIdDomain: addressOf(mail.from).split('@')[1] };
  const automationChecks = createAutomationChecks(repositories);
  const actionRunner = createActionRunner({ dialect, writes: conversationWrites, replyMail, ...repositories, assignment });
  const automationRunner = createAutomationRunner({
    db, clock, onError: onBackgroundError, rules: repositories.automationRules, ruleCache: createRuleCache(repositories.automationRules),
    jobs: automationJobRepository(db, dialect), writes: conversationWrites,
    actions: actionRunner, regex: createRegexRunner(), ...repositories, assignment,
  });
  const proofOfWork = createProofOfWork({
    secrets: serverSecretRepository(db), usedChallenges: usedChallengeRepository(db), clock, maxNumber: options.proofOfWorkMaxNumber,
  });
  const visitorContacts = createVisitorContacts({ db, dialect, clock, contacts: repositories.contacts });
  const widget = createWidgetService(repositories);
  const visitorConversations = createVisitorConversationService({ db, dialect, clock, writes: conversationWrites, ...repositories });
  /** What each queued kind of mail is sent with: a mailer of its own (closed when it stops), the retry schedule. */
  const mailCycle = () => ({
    db, clock, onError: onBackgroundError, mailer: mail && createMailer(mail), mailTimeoutMs: mail?.timeoutMs ?? 0, retryScheduleMs: webhookConfig.retryScheduleMs,
  });
  const hasher = createPasswordHasher(options.passwordHashing);
  const lockout = createSignInLockout({ db, dialect, signInFailures: repositories.signInFailures, clock });
  const accountsLock = createAccountsLock({ db, dialect, clock, ...repositories });
  const helpWrites = createHelpCenterWrites({ dialect, products: repositories.products });
  const sessions = createSessionService({ db, accountsLock, clock, hasher, lockout, audit, ...repositories });
  const invitations = createInvitationService({ db, accountsLock, clock, hasher, lockout, audit, sessionService: sessions, ...repositories });
  const helpEvents = createHelpEvents({ helpEvents: repositories.helpEvents, clock });
  const answers = createAnswerService({
    ...repositories, events: helpEvents, clock, embedder: () => detector.embedder, onError: onBackgroundError,
    writer: chatModel ? createAnswerWriter(chatModel, onBackgroundError) : null,
  });
  const oidc = createOidcClient({ clock, timeoutMs: options.ssoTimeoutMs });
  return {
    /** The clock every service reads; the HTTP layer dates what it serves by it too (a changelog's Last-Modified). */
    clock,
    outbox,
    audit,
    /** Reading the audit log: GET /api/v1/audit-log and its CSV. */
    auditLogReader: createAuditLogService(repositories),
    live,
    issueWrites,
    /** SLA breaches: recorded by the dispatcher's cycle; a test may run it itself. */
    slaBreaches,
    admin: createAdminService({ db, accountsLock, clock, audit, ownerLinks: invitations, ...repositories }),
    sessions,
    invitations,
    sso: createSsoService({ accountsLock, oidc, clock, audit, ...repositories }),
    ssoSignIn: createSsoSignIn({ accountsLock, oidc, clock, audit, sessionService: sessions, ...repositories }),
    members: createMemberService({ dialect, accountsLock, clock, audit, issueWrites, conversationWrites, ...repositories }),
    apiKeys: createApiKeyService({ accountsLock, clock, audit, ...repositories }),
    identity: createIdentityService({
      apiKeys: repositories.apiKeys,
      members: repositories.members,
      clock,
      onOnline: (workspaceId) => void assignmentQueue.sweep(workspaceId),
      onBackgroundError,
    }),
    products: createProductService({
      db, dialect, products: repositories.products, widgetSessions: repositories.widgetSessions, outbox, audit, clock, inboundDomain: email.inboundDomain,
      members: repositories.members, onAssignmentChanged: (workspaceId, productId) => void assignmentQueue.request(workspaceId, productId),
    }),
    conversations: createConversationService({
      db, dialect, clock, writes: conversationWrites, ...repositories, replyMail,
    }),
    /** Who is viewing or typing where (docs/automation.md, "Collision"): passing events on the team stream. */
    presence: createPresenceService({ conversations: repositories.conversations, live, clock }),
    contacts: createContactService({ db, dialect, clock, writes: conversationWrites, erasure: erasureRepository(db), attachmentFiles: attachments, audit, ...repositories }),
    tags: createTagService(repositories),
    notifications: createNotificationService({ clock, ...repositories }),
    savedReplies: createSavedReplyService({ db, dialect, clock, ...repositories }),
    calendars: createCalendarService({ db, dialect, clock, audit, ...repositories }),
    slaPolicies: createSlaPolicyService({ db, dialect, clock, audit, ...repositories }),
    reports: createReportService({ reports: reportRepository(db, dialect), members: repositories.members, articles: repositories.articles, helpEvents, clock }),
    /** `loopdesk reports rebuild`: the reports' figures measured again. */
    reportRebuild: createReportRebuild({ db, dialect: dialect.name, slaClocks: repositories.slaClocks, reports: reportRepository(db, dialect), measures: clockMeasures }),
    automationRules: createAutomationRuleService({ db, dialect, clock, audit, checks: automationChecks, ...repositories }),
    macros: createMacroService({ db, dialect, clock, checks: automationChecks, actions: actionRunner, writes: conversationWrites, ...repositories, assignment }),
    /** Assigns the conversations waiting for a free member (docs/automation.md, "Assignment"); swept by the server at start. */
    assignmentQueue,
    /** Runs the rules' jobs; the dispatcher plans them and runs them in its cycle (tests call `run` themselves). */
    automationRunner,
    inbound,
    attachments,
    attachmentStore,
    issues,
    issueDedup: createIssueDedupService({
      db, clock, issues: repositories.issues, issueService: issues, issueWrites, matcher,
      observeDedupSeconds: (seconds) => metrics.dedupSeconds.observe(seconds),
    }),
    triage,
    releases: createReleaseService({ db, dialect, clock, issueWrites, outbox, ...repositories }),
    search: createSearchService({ search, ...repositories }),
    collections: createCollectionService({ db, clock, helpWrites, ...repositories }),
    articles: createArticleService({ db, clock, helpWrites, outbox, ...repositories, search, indexed: answers.indexArticle }),
    /** Answers and suggested articles (docs/help-center.md, "Answers"). */
    answers,
    /** Visitors' searches, answers shown and article views, and the self-service counts of the reports. */
    helpEvents,
    helpPages: createHelpPages({ ...repositories, search }),
    widgetArticles: createWidgetArticles({ ...repositories, search, tallies: createArticleTallies({ db, dialect, clock, ...repositories, viewEvents: helpEvents }) }),
    idempotency: createIdempotencyService({ records: idempotencyRepository(db), clock }),
    changelog: createChangelogService(repositories),
    widget,
    proofOfWork,
    widgetSessions: createWidgetSessionService({ clock, proofOfWork, visitorContacts, ...repositories }),
    visitorConversations,
    screenshots: createScreenshotService({ visitorConversations, store: attachmentStore, clock }),
    ideas: createIdeaService({ db, writes: conversationWrites, ...repositories }),
    forms: createFormService({ db, clock, writes: conversationWrites, visitorContacts, proofOfWork }),
    widgetDemo: createWidgetDemoService({ widgets: widget, workspaces: repositories.workspaces }),
    webhooks: createWebhookService({ db, dialect, clock, urlGuard, audit, ...repositories }),
    /** The budgets of /api/v1 and the widget API: in memory on SQLite, shared through the database where processes share it. */
    rateLimits: createRateLimits({ clock, sharedBuckets: dialect.sharedByProcesses ? rateLimitRepository(db) : null }),
    /** Observed here and by the HTTP layer; served by GET /metrics when it is on (src/http/plugins/metrics.ts). */
    metrics,
    /** What GET /metrics reads at each scrape. */
    metricSources: {
      operations: operationsRepository(db), eventStreams: () => live.subscriberCount(), requestsInFlight: requestPressure.requestsInFlight,
      poolUsage: () => dialect.poolUsage(), now: () => clock.now(),
    },
    /** Fed by the HTTP server (src/app.ts): the dispatcher yields to requests that saturate the event loop. */
    requestPressure,
    /** Webhook delivery, release announcements and conversation jobs (summaries); started by the server (src/main.ts) once it listens, idle everywhere else. */
    webhookDispatcher: createDispatcher({
      db, clock, config: webhookConfig, onError: onBackgroundError, announcer, conversationJobRunner, slaBreaches, automation: automationRunner, pressure: requestPressure, ...repositories,
      // Mailers of their own: the announcer closes its own when it stops, each of these its own.
      mailers: [
        createReplyMailer({
          ...mailCycle(), ...repositories, inboundDomain: email.inboundDomain, returnPaths: email.returnPath === 'reply',
        }),
        createNotificationMailer({ ...mailCycle(), ...repositories, appBase: options.appBase ?? 'http://127.0.0.1:3000' }),
      ],
      sender: createWebhookSender({ guard: urlGuard, timeoutMs: webhookConfig.timeoutMs, maxSockets: webhookConfig.concurrency }),
    }),
    /** Deletes what has outlived its use, hourly; started by the server (src/main.ts) like the dispatcher. */
    housekeeping: createHousekeeping({
      clock, retention: retentionRepository(db), signInFailures: repositories.signInFailures, auditEntries: repositories.auditEntries, onError: onBackgroundError,
      refreshStatistics: () => dialect.refreshStatistics(db),
      eventRetentionDays: options.eventRetentionDays ?? EVENT_RETENTION_DAYS_DEFAULT, auditRetentionDays: options.auditRetentionDays ?? AUDIT_RETENTION_DAYS_DEFAULT,
      onReport: options.onHousekeeping,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
