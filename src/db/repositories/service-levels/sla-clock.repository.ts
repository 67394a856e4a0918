// The runs of conversations' SLA clocks (migration 0036), and the SLA columns they leave on their
// conversation. Written only by the conversations' write path (src/domain/service-levels/sla-clocks.ts),
// and measured again by `loopdesk reports rebuild` (src/domain/reports/report-rebuild.ts).
import type { Executor } from '../executor.js';
import type { ConversationTable, SlaClockTable } from '../../schema.js';
import { dimensionsOf, type ReportDimension } from '../reports/report-dimensions.js';

const SLA_CLOCK_COLUMNS = ['id', 'workspace_id', 'conversation_id', 'target', 'policy_id', 'started_at', 'due_at', 'stopped_at', 'outcome', 'breached_at',
  'value_seconds', 'business_seconds', 'answered_by'] as const;

/** A clock as the service levels read and start it: its report dimensions are its conversation's, copied by the insert. */
export type SlaClockRow = Omit<SlaClockTable, ReportDimension>;
/** What a clock's stop, a breach or a new policy changes of it. */
export type SlaClockChanges = Partial<Pick<SlaClockTable, 'policy_id' | 'due_at' | 'stopped_at' | 'outcome' | 'value_seconds' | 'business_seconds' | 'answered_by'>>;
/** The conversation's SLA as its rows keep it. */
export type SlaColumns = Pick<ConversationTable,
  'sla_policy_id' | 'sla_first_response_due_at' | 'sla_next_response_due_at' | 'sla_resolution_due_at' | 'sla_breaches' | 'sla_status' | 'sla_due_at'>;

/** A running clock whose due time has passed and that has not breached yet. */
export type DueClock = Pick<SlaClockTable, 'id' | 'workspace_id' | 'conversation_id'>;

export function slaClockRepository(db: Executor) {
  return {
    async insert(rows: readonly SlaClockRow[], tx: Executor = db): Promise<void> {
      if (rows.length > 0) await tx.insertInto('sla_clocks').values(rows.map((row) => ({ ...row, ...dimensionsOf(row.conversation_id) }))).execute();
    },

    /** A conversation's clock runs, oldest first. */
    async listOfConversation(workspaceId: string, conversationId: string, tx: Executor = db): Promise<SlaClockRow[]> {
      return tx.selectFrom('sla_clocks').select(SLA_CLOCK_COLUMNS)
        .where('conversation_id', '=', conversationId).where('workspace_id', '=', workspaceId)
        .orderBy('started_at', 'asc').orderBy('id', 'asc').execute();
    },

    async update(workspaceId: string, id: string, changes: SlaClockChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('sla_clocks').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Running clocks due by `now` that have not breached, earliest first (through the partial index sla_clocks_breach_due). */
    async dueForBreach(now: string, limit: number, tx: Executor = db): Promise<DueClock[]> {
      return tx.selectFrom('sla_clocks').select(['id', 'workspace_id', 'conversation_id'])
        .where('stopped_at', 'is', null).where('breached_at', 'is', null).where('due_at', 'is not', null)
        .where('due_at', '<=', now)
        .orderBy('due_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
    },

    /**
     * Claims a clock's breach: marks it breached when it still runs, has not breached, and is due by
     * `now`. True for the one transaction that marked it (on PostgreSQL a concurrent claim waits for
     * the row and then finds it breached).
     */
    async claimBreach(workspaceId: string, id: string, now: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.updateTable('sla_clocks').set({ breached_at: now })
        .where('workspace_id', '=', workspaceId).where('id', '=', id)
        .where('stopped_at', 'is', null).where('breached_at', 'is', null).where('due_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Stopped clocks of every workspace after `afterId`, by id: `loopdesk reports rebuild` measures them again. */
    async stoppedAfter(afterId: string | null, limit: number, tx: Executor = db): Promise<SlaClockRow[]> {
      let query = tx.selectFrom('sla_clocks').select(SLA_CLOCK_COLUMNS).where('stopped_at', 'is not', null);
      if (afterId !== null) query = query.where('id', '>', afterId);
      return query.orderBy('id', 'asc').limit(limit).execute();
    },

    async setConversationSla(workspaceId: string, conversationId: string, columns: SlaColumns, tx: Executor = db): Promise<void> {
      await tx.updateTable('conversations').set(columns).where('workspace_id', '=', workspaceId).where('id', '=', conversationId).execute();
    },
  };
}

export type SlaClockRepository = ReturnType<typeof slaClockRepository>;
