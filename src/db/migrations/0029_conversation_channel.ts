// How each conversation came in, as the team reads it: `chat` (the widget), `form`, `email`, or
// `import` (POST /api/v1/conversations, whatever `source` the importer gave). `source` alone could
// not say it: an import's default source is `chat`, like the widget's. Existing rows: email and
// form keep their source; a chat that began in a widget session is `chat`, any other `import` (a
// widget chat whose session was since removed, erased or unused for long, reads as imported).
import { sql, type Kysely } from 'kysely';

export function conversationChannel() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('conversations').addColumn('channel', 'text', (c) => c.notNull().defaultTo('import')).execute();
      await sql`update conversations set channel = case
        when source in ('email', 'form') then source
        when widget_session_id is not null then 'chat'
        else 'import' end`.execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('conversations').dropColumn('channel').execute();
    },
  };
}
