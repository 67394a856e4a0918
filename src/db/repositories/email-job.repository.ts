// Reply mail jobs (migration 0021): one per agent reply in an email conversation, written in the
// message's transaction, claimed with a lease like every job (src/db/repositories/job-claims.ts),
// and what sending one reads: the reply, its conversation's title and reply token, the product's
// inbound name, the contact's address and the reply's return path token (migration 0028).
import type { Dialect } from '../dialect.js';
import type { Executor } from './executor.js';
import { claimDueJobs } from './job-claims.js';
import { ERASED } from './message.repository.js';
import type { EmailJobTable } from '../schema.js';

export type EmailJobRow = EmailJobTable;
export type ClaimedEmailJob = Pick<EmailJobTable, 'id' | 'workspace_id' | 'attempts'> & { next_attempt_at: string };
export type EmailJobOutcome = Pick<EmailJobTable, 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'updated_at'>;

const CLAIMED_COLUMNS = ['id', 'workspace_id', 'attempts'] as const;

/** What a reply's mail is made of. */
export interface ReplyMailRow {
  body: string;
  sender_name: string | null;
  /** The member who replied, or the key that did when it has no member. */
  sender_id: string;
  created_at: string;
  product_name: string;
  email_message_id: string | null;
  conversation_id: string;
  title: string;
  reply_token: string | null;
  inbound_name: string;
  contact_name: string | null;
  contact_email: string | null;
  return_path_token: string | null;
}

/** The reply a return path token names, and where it is. */
export interface ReturnPathRow {
  workspace_id: string;
  /** The reply's message id (its job's id). */
  id: string;
  product_id: string;
}

export function emailJobRepository(db: Executor, dialect: Pick<Dialect, 'forUpdateSkipLocked'>) {
  return {
    async insert(row: EmailJobRow, tx: Executor): Promise<void> {
      await tx.insertInto('email_jobs').values(row).execute();
    },

    claimDue(now: string, leaseUntil: string, limit: number, tx: Executor): Promise<ClaimedEmailJob[]> {
      return claimDueJobs<ClaimedEmailJob>(dialect, tx, 'email_jobs', CLAIMED_COLUMNS, { kind: 'reply', now, leaseUntil, limit });
    },

    /** Writes a run's outcome while its claim's lease holds; whether it did. */
    async recordOutcome(job: Pick<ClaimedEmailJob, 'id' | 'next_attempt_at'>, outcome: EmailJobOutcome, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .updateTable('email_jobs')
        .set(outcome)
        .where('id', '=', job.id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', job.next_attempt_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** A delivery report came back for the reply: it failed, whatever the job's state. */
    async markBounced(workspaceId: string, messageId: string, error: string, now: string, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .updateTable('email_jobs')
        .set({ status: 'failed', last_error: error, next_attempt_at: null, updated_at: now })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Erasure of a conversation's contact: a delivery error of its replies (a bounce quotes the
     * address) becomes `[erased]`, and a reply still waiting to go is never sent (failed, `[erased]`).
     */
    async erase(workspaceId: string, conversationId: string, now: string, tx: Executor): Promise<void> {
      const ofConversation = () => tx.updateTable('email_jobs').where('workspace_id', '=', workspaceId)
        .where('id', 'in', (eb) => eb.selectFrom('messages').select('id').where('workspace_id', '=', workspaceId).where('conversation_id', '=', conversationId));
      await ofConversation()
        .set({ status: 'failed', last_error: ERASED, next_attempt_at: null, updated_at: now })
        .where((eb) => eb.or([eb('status', '=', 'pending'), eb('last_error', 'is not', null)]))
        .execute();
      // No later report (which quotes the address) can reach these replies again.
      await ofConversation().set({ return_path_token: null }).where('return_path_token', 'is not', null).execute();
    },

    async replyOf(workspaceId: string, messageId: string, tx: Executor = db): Promise<ReplyMailRow | undefined> {
      return tx
        .selectFrom('messages as m')
        .innerJoin('email_jobs as j', (join) => join.onRef('j.id', '=', 'm.id').onRef('j.workspace_id', '=', 'm.workspace_id'))
        .innerJoin('conversations as c', (join) => join.onRef('c.id', '=', 'm.conversation_id').onRef('c.workspace_id', '=', 'm.workspace_id'))
        .innerJoin('products as p', (join) => join.onRef('p.id', '=', 'c.product_id').onRef('p.workspace_id', '=', 'c.workspace_id'))
        .leftJoin('contacts as ct', (join) => join.onRef('ct.id', '=', 'c.contact_id').onRef('ct.workspace_id', '=', 'c.workspace_id'))
        .select([
          'm.body', 'm.sender_id', 'm.sender_name', 'm.created_at', 'm.email_message_id', 'm.conversation_id', 'c.title', 'c.reply_token', 'p.inbound_name',
          'p.name as product_name', 'ct.name as contact_name', 'ct.email as contact_email', 'j.return_path_token',
        ])
        .where('m.workspace_id', '=', workspaceId)
        .where('m.id', '=', messageId)
        .executeTakeFirst();
    },

    /** The reply whose return path carries `token`, in any workspace (the token is unique, as a product's inbound name is). */
    async findByReturnPathToken(token: string, tx: Executor = db): Promise<ReturnPathRow | undefined> {
      return tx
        .selectFrom('email_jobs as j')
        .innerJoin('messages as m', (join) => join.onRef('m.id', '=', 'j.id').onRef('m.workspace_id', '=', 'j.workspace_id'))
        .innerJoin('conversations as c', (join) => join.onRef('c.id', '=', 'm.conversation_id').onRef('c.workspace_id', '=', 'm.workspace_id'))
        .select(['j.workspace_id', 'j.id', 'c.product_id'])
        .where('j.return_path_token', '=', token)
        .executeTakeFirst();
    },
  };
}

export type EmailJobRepository = ReturnType<typeof emailJobRepository>;
