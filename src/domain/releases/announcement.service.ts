// Release announcements (docs/events.md): what a published release tells the customers whose
// conversations are linked to its issues. `plan` turns release.published events into jobs, one
// system message per conversation and one email per contact with an address (rendered here, so
// every retry posts or mails the same thing); `post` writes a message job's message in the
// transaction that marks the job done, so it is posted exactly once. Emails are sent by the
// announcer (src/events/announcer.ts).
import type { Db } from '../../db/database.js';
import type {
  AnnouncementJobRepository, AnnouncementJobRow, ClaimedJob, LinkedConversationRow,
} from '../../db/repositories/announcement-job.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { EventPayload } from '../../events/event-types.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import type { ReleaseDetail } from './release.service.js';
import { inTransaction } from '../shared/unit-of-work.js';

/** A message job's content: the system message, its sender_name the product's name. */
export interface MessageContent {
  body: string;
  sender_name: string;
}

/** An email job's content. */
export interface EmailContent {
  to: { name: string | null; address: string };
  subject: string;
  text: string;
  html: string;
}

type Shipped = Pick<ReleaseDetail, 'id' | 'title' | 'version' | 'product'>;

const quoted = (title: string) => `“${title}”`;

/** "A", "A and B", "A, B and C". */
function enumeration(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "Acme Mobile App 2.4.0", or the product alone when the release has no version. */
const productVersion = (release: Shipped) => (release.version ? `${release.product.name} ${release.version}` : release.product.name);

/** "Acme Mobile App 2.4.0 — November fixes". */
const releaseName = (release: Shipped) => `${productVersion(release)} — ${release.title}`;

/** Good news: “Export crashes” shipped in Acme Mobile App 2.4.0 — November fixes. */
export function messageText(release: Shipped, issueTitles: readonly string[]): string {
  return `Good news: ${enumeration(issueTitles.map(quoted))} shipped in ${releaseName(release)}.`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

/** One email: subject naming product and version, the shipped issues as a list in plain text and HTML. */
export function emailOf(release: Shipped, to: EmailContent['to'], issueTitles: readonly string[]): EmailContent {
  const greeting = to.name ? `Hello ${to.name},` : 'Hello,';
  const lead = `Good news: what you asked us about has shipped in ${releaseName(release)}:`;
  const thanks = 'Thank you for telling us.';
  return {
    to,
    subject: `Shipped in ${productVersion(release)}`,
    text: [greeting, '', lead, '', ...issueTitles.map((title) => `- ${title}`), '', thanks, ''].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(lead)}</p>`,
      `<ul>${issueTitles.map((title) => `<li>${escapeHtml(title)}</li>`).join('')}</ul>`,
      `<p>${escapeHtml(thanks)}</p>`,
    ].join('\n'),
  };
}

/** Adds `issueId` to the list under `key`, once. */
function collect(map: Map<string, Set<string>>, key: string, issueId: string): void {
  const issues = map.get(key) ?? new Set<string>();
  issues.add(issueId);
  map.set(key, issues);
}

/**
 * The jobs of one published release: a message per linked conversation naming its issues, and
 * (when `mailing`) an email per contact with an address naming the issues of all their linked
 * conversations. Issues are named in the release's order, with their titles at publication.
 */
export function planAnnouncements(
  release: ReleaseDetail, linked: readonly LinkedConversationRow[], mailing: boolean, now: string,
): AnnouncementJobRow[] {
  const titled = (issueIds: Set<string>) => release.issues.filter((issue) => issueIds.has(issue.id)).map((issue) => issue.title);
  const byConversation = new Map<string, Set<string>>();
  const byContact = new Map<string, Set<string>>();
  const recipients = new Map<string, EmailContent['to']>();
  for (const row of linked) {
    collect(byConversation, row.conversation_id, row.issue_id);
    if (mailing && row.contact_id && row.contact_email) {
      collect(byContact, row.contact_id, row.issue_id);
      recipients.set(row.contact_id, { name: row.contact_name, address: row.contact_email });
    }
  }
  const job = (kind: AnnouncementJobRow['kind'], targetId: string, content: MessageContent | EmailContent): AnnouncementJobRow => ({
    id: newId(), workspace_id: release.workspace_id, release_id: release.id, kind, target_id: targetId, content: JSON.stringify(content),
    status: 'pending', attempts: 0, last_error: null, next_attempt_at: now, created_at: now, updated_at: now,
  });
  return [
    ...[...byConversation].map(([conversationId, issueIds]) =>
      job('message', conversationId, { body: messageText(release, titled(issueIds)), sender_name: release.product.name })),
    ...[...byContact].map(([contactId, issueIds]) => job('email', contactId, emailOf(release, recipients.get(contactId)!, titled(issueIds)))),
  ];
}

export interface AnnouncementServiceDeps {
  db: Db;
  announcementJobs: AnnouncementJobRepository;
  conversationWrites: Pick<ConversationWrites, 'lock' | 'addMessage'>;
  clock: Clock;
}

export function createAnnouncementService({ db, announcementJobs, conversationWrites, clock }: AnnouncementServiceDeps) {
  return {
    /**
     * Creates the jobs of the release.published events among `eventIds`, in the transaction that
     * fans them out; a job that exists already (a release published again) is not made twice.
     */
    async plan(eventIds: readonly string[], mailing: boolean, tx: Executor): Promise<void> {
      const now = clock.now();
      for (const payload of await announcementJobs.publishedPayloads(eventIds, tx)) {
        const release = (JSON.parse(payload) as EventPayload).data as unknown as ReleaseDetail;
        const linked = await announcementJobs.conversationsLinkedTo(release.workspace_id, release.issues.map((issue) => issue.id), tx);
        await announcementJobs.insertMany(planAnnouncements(release, linked, mailing, now), tx);
      }
    },

    /**
     * Posts a claimed message job's system message (sender_id the release) in the transaction
     * that marks the job done; whether it did (false: the claim's lease had run out and another
     * run owns the job).
     */
    async post(job: ClaimedJob): Promise<boolean> {
      const content = JSON.parse(job.content) as MessageContent;
      return inTransaction(db, async (work) => {
        const now = await conversationWrites.lock(work, job.target_id);
        const done = { status: 'done' as const, attempts: job.attempts + 1, last_error: null, next_attempt_at: null, updated_at: now };
        if (!(await announcementJobs.recordOutcome(job.id, job.next_attempt_at, done, work.tx))) return false;
        await conversationWrites.addMessage(work, {
          id: newId(), workspace_id: job.workspace_id, conversation_id: job.target_id, sender_type: 'system', sender_id: job.release_id,
          sender_name: content.sender_name, body: content.body, created_at: now, internal: 0,
        });
        return true;
      });
    },
  };
}

export type AnnouncementService = ReturnType<typeof createAnnouncementService>;
