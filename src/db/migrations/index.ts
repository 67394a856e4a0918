import type { Migration } from 'kysely';
import type { ColumnTypes, DialectName } from '../dialect.js';
import { init } from './0001_init.js';
import { dedup } from './0002_dedup.js';
import { idempotency } from './0003_idempotency.js';
import { benchIndexes } from './0004_bench_indexes.js';
import { issueTallies } from './0005_issue_tallies.js';
import { events } from './0006_events.js';
import { announcements } from './0007_announcements.js';
import { widget } from './0008_widget.js';
import { accounts } from './0009_accounts.js';
import { secretRotation } from './0010_secret_rotation.js';
import { apiKeyIntegration } from './0011_api_key_integration.js';
import { rateLimits } from './0012_rate_limits.js';
import { idempotencyCredentials } from './0013_idempotency_credentials.js';
import { issueCandidatesIndex } from './0014_issue_candidates_index.js';
import { upvoteVoters } from './0015_upvote_voters.js';
import { conversationJobs } from './0016_conversation_jobs.js';
import { triage } from './0017_triage.js';
import { inbox } from './0018_inbox.js';
import { tagsContacts } from './0019_tags_contacts.js';
import { search } from './0020_search.js';
import { email } from './0021_email.js';
import { listIndexes } from './0022_list_indexes.js';
import { searchFolds } from './0023_search_folds.js';
import { dedupChanges } from './0024_dedup_changes.js';
import { conversationSuggestionsIndex } from './0025_conversation_suggestions_index.js';
import { messagesSender } from './0026_messages_sender.js';
import { portableSearchTexts } from './0027_portable_search_texts.js';
import { emailReturnPaths } from './0028_email_return_paths.js';
import { conversationChannel } from './0029_conversation_channel.js';
import { searchLetters } from './0030_search_letters.js';
import { memberSettings } from './0031_member_settings.js';
import { conversationSnooze } from './0032_conversation_snooze.js';
import { notifications } from './0033_notifications.js';
import { serviceLevels } from './0034_service_levels.js';
import { helpCenter } from './0035_help_center.js';
import { conversationSla } from './0036_conversation_sla.js';
import { automation } from './0037_automation.js';
import { reports } from './0038_reports.js';
import { helpAnswers } from './0039_help_answers.js';
import { articleVisits } from './0040_article_visits.js';
import { assignment } from './0041_assignment.js';
import { auditLog } from './0042_audit_log.js';
import { sso } from './0043_sso.js';
import { reportClockIndex } from './0046_report_clock_index.js';
import { reportDimensions } from './0047_report_dimensions.js';
import { automationRuleVersions } from './0048_automation_rule_versions.js';
import { reportDays } from './0049_report_days.js';

/** Every migration, by name; names sort in the order they apply. `dialect` only for what the portable schema builder cannot say (full-text search). */
export function migrations(types: ColumnTypes, dialect: DialectName): Record<string, Migration> {
  return {
    '0001_init': init(types),
    '0002_dedup': dedup(types),
    '0003_idempotency': idempotency(types),
    '0004_bench_indexes': benchIndexes(),
    '0005_issue_tallies': issueTallies(types),
    '0006_events': events(types),
    '0007_announcements': announcements(types),
    '0008_widget': widget(types),
    '0009_accounts': accounts(types),
    '0010_secret_rotation': secretRotation(types),
    '0011_api_key_integration': apiKeyIntegration(),
    '0012_rate_limits': rateLimits(types),
    '0013_idempotency_credentials': idempotencyCredentials(types),
    '0014_issue_candidates_index': issueCandidatesIndex(),
    '0015_upvote_voters': upvoteVoters(types),
    '0016_conversation_jobs': conversationJobs(types),
    '0017_triage': triage(types),
    '0018_inbox': inbox(types),
    '0019_tags_contacts': tagsContacts(types),
    '0020_search': search(dialect),
    '0021_email': email(types),
    '0022_list_indexes': listIndexes(),
    '0023_search_folds': searchFolds(dialect),
    '0024_dedup_changes': dedupChanges(),
    '0025_conversation_suggestions_index': conversationSuggestionsIndex(),
    '0026_messages_sender': messagesSender(),
    '0027_portable_search_texts': portableSearchTexts(dialect),
    '0028_email_return_paths': emailReturnPaths(),
    '0029_conversation_channel': conversationChannel(),
    '0030_search_letters': searchLetters(dialect),
    '0031_member_settings': memberSettings(),
    '0032_conversation_snooze': conversationSnooze(types),
    '0033_notifications': notifications(types),
    '0034_service_levels': serviceLevels(types),
    '0035_help_center': helpCenter(types, dialect),
    '0036_conversation_sla': conversationSla(types),
    '0037_automation': automation(types),
    '0038_reports': reports(types),
    '0039_help_answers': helpAnswers(types),
    '0040_article_visits': articleVisits(types),
    '0041_assignment': assignment(types),
    '0042_audit_log': auditLog(types),
    '0043_sso': sso(types),
    '0046_report_clock_index': reportClockIndex(),
    '0047_report_dimensions': reportDimensions(types),
    '0048_automation_rule_versions': automationRuleVersions(types),
    '0049_report_days': reportDays(types, dialect),
  };
}
