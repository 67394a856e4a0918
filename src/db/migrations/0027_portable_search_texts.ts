// The view `search_texts` (SQLite) as every SQLite from 3.36 on reads it. 0023 ordered a
// conversation's folded messages with an ORDER BY inside `group_concat`, which only SQLite 3.44
// and later parse: SQLite parses a database's whole schema when it opens one, so older versions
// (Debian 12's `sqlite3`, 3.40; Python 3.11's) failed every statement on the database or a backup
// of it ("malformed database schema"). The same text, in the same order, comes here from a
// subquery ordered by (created_at, id): SQLite keeps a FROM subquery's ORDER BY when the query
// around it aggregates with anything but count, min or max, so `group_concat` reads its rows in
// that order (docs/operations.md, "Which SQLite reads a backup"). PostgreSQL is unchanged.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { sqliteFoldedText, sqliteTextsView } from './0023_search_folds.js';

/** The text of a conversation's folded messages, oldest first, one per line. */
const portableFoldedText = (conversationId: string) => `coalesce((select group_concat(body, char(10)) from (select m.body from messages m
  where m.conversation_id = ${conversationId} and not exists (select 1 from search_documents md where md.source_id = m.id)
  order by m.created_at, m.id)), '')`;

const replaceView = (conversationBody: (row: string) => string) => async (db: Kysely<any>): Promise<void> => {
  await sql`drop view search_texts`.execute(db);
  await sql.raw(sqliteTextsView(conversationBody)).execute(db);
};

export function portableSearchTexts(dialect: DialectName) {
  const unchanged = async () => {};
  return dialect === 'sqlite'
    ? { up: replaceView(portableFoldedText), down: replaceView(sqliteFoldedText) }
    : { up: unchanged, down: unchanged };
}
