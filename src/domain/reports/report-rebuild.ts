// `loopdesk reports rebuild` (docs/reports.md, "Rebuilding"): measures every stopped SLA clock again
// from its conversation's messages and the calendars as they are now — the reply that stopped a
// response clock (and its author), the value round the clock and in business hours — the same
// rules and code as live writing (src/domain/service-levels/sla-clocks.ts, clock-values.ts), so
// the rows come out identical. After an import, a `copy`, clocks stopped before migration 0038, or
// a change of calendars or of LOOPDESK_DEFAULT_CALENDAR. A page of clocks per transaction. Then the
// day counts (report-days.ts) counted afresh from the conversations and messages, in one transaction.
import type { Db } from '../../db/database.js';
import type { DialectName } from '../../db/dialect.js';
import { countAllReportDays } from '../../db/repositories/reports/report-days.js';
import type { ReportRepository } from '../../db/repositories/reports/report.repository.js';
import type { SlaClockRepository, SlaClockRow } from '../../db/repositories/service-levels/sla-clock.repository.js';
import type { Schedule } from '../service-levels/business-time.js';
import { clockValuesOf, type ClockMeasures } from '../service-levels/clock-values.js';
import { inTransaction } from '../shared/unit-of-work.js';

const PAGE = 1000;

export interface RebuildReport {
  /** Stopped clocks measured. */
  clocks: number;
  /** Of them, those whose row changed. */
  changed: number;
  /** The day counts' rows written afresh. */
  day_rows: number;
}

export interface ReportRebuildDeps {
  db: Db;
  dialect: DialectName;
  slaClocks: Pick<SlaClockRepository, 'stoppedAfter' | 'update'>;
  reports: Pick<ReportRepository, 'agentRepliesOf'>;
  measures: ClockMeasures;
}

type Reply = { conversation_id: string; sender_id: string; created_at: string };

/** The reply that stopped a response clock: an agent's reply at the instant it stopped; none when the closing stopped it. */
const stoppingReply = (clock: SlaClockRow, replies: readonly Reply[]): Reply | undefined =>
  replies.find((reply) => reply.conversation_id === clock.conversation_id && Date.parse(reply.created_at) === Date.parse(clock.stopped_at!));

export function createReportRebuild({ db, dialect, slaClocks, reports, measures }: ReportRebuildDeps) {
  const recountDays = () => inTransaction(db, async ({ tx }) => {
    await tx.deleteFrom('report_days').execute();
    await countAllReportDays(tx, dialect);
    return Number((await tx.selectFrom('report_days').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  });

  return {
    async rebuild(): Promise<RebuildReport> {
      const result: RebuildReport = { clocks: 0, changed: 0, day_rows: 0 };
      // One schedule per workspace and policy for the run: calendars are read once, as they are now.
      const schedules = new Map<string, Schedule | null>();
      let afterId: string | null = null;
      for (;;) {
        const page: SlaClockRow[] = await slaClocks.stoppedAfter(afterId, PAGE);
        if (page.length === 0) return { ...result, day_rows: await recountDays() };
        afterId = page.at(-1)!.id;
        await inTransaction(db, async ({ tx }) => {
          const replies = await reports.agentRepliesOf([...new Set(page.map((clock) => clock.conversation_id))], tx);
          for (const clock of page) {
            const key = `${clock.workspace_id}:${clock.policy_id}`;
            if (!schedules.has(key)) schedules.set(key, await measures.scheduleFor(clock.workspace_id, clock.policy_id, tx));
            const reply = clock.target === 'resolution' ? undefined : stoppingReply(clock, replies);
            const byRule = clock.target === 'resolution' || reply !== undefined;
            const values = byRule ? clockValuesOf(clock.started_at, clock.stopped_at!, schedules.get(key)!) : null;
            const measured = { value_seconds: values?.value_seconds ?? null, business_seconds: values?.business_seconds ?? null, answered_by: reply?.sender_id ?? null };
            result.clocks += 1;
            if (measured.value_seconds === clock.value_seconds && measured.business_seconds === clock.business_seconds && measured.answered_by === clock.answered_by) continue;
            await slaClocks.update(clock.workspace_id, clock.id, measured, tx);
            result.changed += 1;
          }
        });
      }
    },
  };
}

export type ReportRebuild = ReturnType<typeof createReportRebuild>;
