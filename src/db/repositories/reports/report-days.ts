// The reports' day counts (migration 0049; docs/reports.md, "Storage"): conversations created,
// contacts' messages received and agents' replies sent, per UTC day and per the conversation's
// report dimensions (product, type, source, assignee). A year's summary sums a few thousand of
// these rows instead of reading every message of the year (at 100k conversations, 230k messages:
// about half of a year's summary on SQLite, docs/benchmarks.md "Reports"). They are kept by the
// only writes that move them, in the same transaction: a conversation's insert, a message's insert
// (message.repository.ts) and an assignee's change (conversation.repository.ts, `moveToAssignee`).
//
// A key's row is shared by every conversation of that day and dimensions, and an upsert holds its
// row until the transaction commits; so a key is split into SLOTS rows by the conversation's id
// (its last character), and PostgreSQL's concurrent writers of one busy key wait on each other a
// quarter as often. A conversation's counts are always in its own slot.
import { sql, type Expression, type Kysely, type OnConflictBuilder } from 'kysely';
import type { DialectName } from '../../dialect.js';
import type { Executor } from '../executor.js';
import type { ConversationTable, ReportDayTable } from '../../schema.js';
import { compileOnce } from '../compiled-query.js';

const SLOTS = 4;
const KEY = ['workspace_id', 'day', 'product_id', 'type', 'source', 'assignee_key', 'slot'] as const;
const COUNTS = ['conversations_created', 'messages_received', 'messages_sent'] as const;

export type DayCounts = Pick<ReportDayTable, (typeof COUNTS)[number]>;

/** What of a conversation its day counts are keyed by. */
export type ReportedConversation = Pick<ConversationTable, 'workspace_id' | 'id' | 'created_at' | 'product_id' | 'type' | 'source' | 'assignee_id'>;

/** The UTC day of an instant written as ISO 8601 (what every write passes). */
export const utcDayOf = (at: string): string => at.slice(0, 10);

/** A conversation's slot: the same for all its counts, spread evenly by the id's random last character. */
export const slotOf = (conversationId: string): number => conversationId.charCodeAt(conversationId.length - 1) % SLOTS;

/** What a message adds to its day: a contact's message is received, an agent's reply sent; a note or a system message nothing. */
export function messageCounts(message: { sender_type: string; internal: number }): DayCounts | null {
  if (message.sender_type === 'contact') return { conversations_created: 0, messages_received: 1, messages_sent: 0 };
  if (message.sender_type === 'agent' && message.internal === 0) return { conversations_created: 0, messages_received: 0, messages_sent: 1 };
  return null;
}

export const CONVERSATION_CREATED: DayCounts = { conversations_created: 1, messages_received: 0, messages_sent: 0 };

/** On a key's existing row, the counts are added to it. */
const addCounts = (conflict: OnConflictBuilder<any, any>) =>
  conflict.columns([...KEY]).doUpdateSet(Object.fromEntries(COUNTS.map((column) => [column, sql`${sql.ref(`report_days.${column}`)} + ${sql.ref(`excluded.${column}`)}`])));

export function reportDays(db: Executor) {
  // One statement: the conversation's dimensions read by the insert itself, as a message's are.
  const addFromConversation = compileOnce(
    ['conversationId', 'day', 'slot', ...COUNTS],
    (values: DayCounts & { conversationId: string; day: string; slot: number }) =>
      db.insertInto('report_days').columns([...KEY, ...COUNTS])
        .expression(db.selectFrom('conversations as c').where('c.id', '=', values.conversationId).select([
          'c.workspace_id', sql<string>`cast(${values.day} as text)`.as('day'), 'c.product_id', 'c.type', 'c.source',
          sql<string>`coalesce(cast(c.assignee_id as text), '')`.as('assignee_key'), sql<number>`cast(${values.slot} as integer)`.as('slot'),
          ...COUNTS.map((column) => sql<number>`cast(${values[column]} as integer)`.as(column)),
        ]))
        .onConflict(addCounts),
  );

  return {
    /** Adds `counts` to the day of `at` under the conversation's dimensions as they are now. */
    async add(conversationId: string, at: string, counts: DayCounts, tx: Executor): Promise<void> {
      await addFromConversation(tx, { conversationId, day: utcDayOf(at), slot: slotOf(conversationId), ...counts });
    },

    /**
     * The conversation's counts moved from its assignee's rows (`conversation` as it was) to
     * `assigneeId`'s: its creation and its messages, day by day, in one upsert.
     */
    async moveToAssignee(conversation: ReportedConversation, assigneeId: string | null, tx: Executor): Promise<void> {
      const messages = await tx.selectFrom('messages').select(['created_at', 'sender_type', 'internal'])
        .where('workspace_id', '=', conversation.workspace_id).where('conversation_id', '=', conversation.id).execute();
      const byDay = new Map<string, DayCounts>([[utcDayOf(conversation.created_at), { ...CONVERSATION_CREATED }]]);
      for (const message of messages) {
        const counts = messageCounts(message);
        if (!counts) continue;
        const day = utcDayOf(message.created_at);
        const sum = byDay.get(day) ?? { conversations_created: 0, messages_received: 0, messages_sent: 0 };
        for (const column of COUNTS) sum[column] += counts[column];
        byDay.set(day, sum);
      }
      const { workspace_id, product_id, type, source } = conversation;
      const key = { workspace_id, product_id, type, source, slot: slotOf(conversation.id) };
      const rows = [...byDay].flatMap(([day, counts]) => [
        { ...key, day, assignee_key: conversation.assignee_id ?? '', ...Object.fromEntries(COUNTS.map((column) => [column, -counts[column]])) as DayCounts },
        { ...key, day, assignee_key: assigneeId ?? '', ...counts },
      ]);
      // In key order, so two moves in opposite directions take their rows' locks in the same order.
      const order = (row: { day: string; assignee_key: string }) => `${row.day} ${row.assignee_key}`;
      rows.sort((a, b) => (order(a) < order(b) ? -1 : 1));
      await tx.insertInto('report_days').values(rows).onConflict(addCounts).execute();
    },
  };
}

export type ReportDays = ReturnType<typeof reportDays>;

/** The UTC day of a timestamp column in SQL, as `utcDayOf` gives it. */
const sqlUtcDay = (dialect: DialectName, at: Expression<unknown>) =>
  dialect === 'sqlite' ? sql<string>`substr(${at}, 1, 10)` : sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD')`;
/** `slotOf` in SQL. */
const sqlSlot = (dialect: DialectName, id: Expression<unknown>) =>
  dialect === 'sqlite' ? sql<number>`unicode(substr(${id}, -1)) % ${sql.lit(SLOTS)}` : sql<number>`ascii(right(cast(${id} as text), 1)) % ${sql.lit(SLOTS)}`;

/**
 * Every day count computed afresh from the conversations and messages, in one statement: migration
 * 0049 fills the table with it, and `loopdesk reports rebuild` (after rows were written outside the
 * write path: an import, a bench's seed) puts it right. The caller empties the table first.
 */
export async function countAllReportDays(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const dimensions = sql`c.workspace_id, c.product_id, c.type, c.source, coalesce(cast(c.assignee_id as text), '') as assignee_key, ${sqlSlot(dialect, sql.ref('c.id'))} as slot`;
  await sql`
    insert into report_days (workspace_id, day, product_id, type, source, assignee_key, slot, conversations_created, messages_received, messages_sent)
    select workspace_id, day, product_id, type, source, assignee_key, slot, sum(created), sum(received), sum(sent) from (
      select ${sqlUtcDay(dialect, sql.ref('c.created_at'))} as day, ${dimensions}, 1 as created, 0 as received, 0 as sent from conversations c
      union all
      select ${sqlUtcDay(dialect, sql.ref('m.created_at'))} as day, ${dimensions},
        0 as created, case when m.sender_type = 'contact' then 1 else 0 end as received, case when m.sender_type = 'agent' then 1 else 0 end as sent
      from messages m join conversations c on c.id = m.conversation_id
      where m.sender_type = 'contact' or (m.sender_type = 'agent' and m.internal = 0)
    ) counted
    group by workspace_id, day, product_id, type, source, assignee_key, slot
  `.execute(db);
}
