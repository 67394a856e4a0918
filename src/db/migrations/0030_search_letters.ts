// Search agrees with itself (docs/search.md, "Both databases alike"): the letters PostgreSQL's
// `unaccent` folds to others but SQLite's `unicode61 remove_diacritics 2` keeps as they are (ß and
// ss, æ and ae, ø and o, ł and l, …) are folded on SQLite too, so that "Weiss" finds "Weiß" on both.
// - SQLite: every write of a document's words into the FTS5 index folds its title and body first
//   (the triggers are rewritten to call the server's SQL function loopdesk_search_fold, the index
//   is filled again); the query's words are folded the same way (src/db/full-text.ts). The content
//   the index reads snippets from stays the text as written: a letter folds to letters, so a
//   document keeps its number of words, and a snippet's highlights fall on the words as written
//   ("Weiß" highlighted for "weiss").
// - PostgreSQL: nothing to do, unaccent folds them already.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { foldedSql, SEARCH_FOLD_FUNCTION } from '../search-letters.js';

/** The items of a comma-separated SQL list, split where no parenthesis is open. */
function topLevelItems(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '(') depth++;
    else if (list[i] === ')') depth--;
    else if (list[i] === ',' && depth === 0) {
      items.push(list.slice(start, i));
      start = i + 1;
    }
  }
  return [...items, list.slice(start)];
}

/**
 * A trigger's SQL with `change` applied to the title and body (the last two items) of each of its
 * writes into search_index: `insert into search_index (…) values (…, title, body)` and `insert into
 * search_index (…) select …, title, body from search_texts …`.
 */
function rewriteIndexWrites(triggerSql: string, change: (expression: string) => string): string {
  return triggerSql.replace(/(insert into search_index \([^)]*\) )(values \(|select )([\s\S]*?)(\);|\s+from search_texts)/g, (_whole, into, verb, list, end) => {
    const items = topLevelItems(list);
    // A literal ('' where a table has no title or body) has nothing to fold.
    const changed = items.slice(-2).map((item) => item.trim()).map((item) => ` ${/^'[^']*'$/.test(item) ? item : change(item)}`);
    return `${into}${verb}${[...items.slice(0, -2), ...changed].join(',')}${end}`;
  });
}

/** The triggers that write into search_index, as the database holds them. */
async function indexTriggers(db: Kysely<any>): Promise<{ name: string; sql: string }[]> {
  const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'trigger' and sql like '%insert into search_index%' order by name`.execute(db);
  return rows;
}

/** Rewrites every index trigger, then fills the index again with the words `fold` makes. */
async function refold(db: Kysely<any>, change: (expression: string) => string, fold: (expression: string) => string): Promise<void> {
  for (const trigger of await indexTriggers(db)) {
    await sql.raw(`drop trigger ${trigger.name}`).execute(db);
    await sql.raw(rewriteIndexWrites(trigger.sql, change)).execute(db);
  }
  await sql`insert into search_index (search_index) values ('delete-all')`.execute(db);
  await sql.raw(`insert into search_index (rowid, title, body) select doc_id, ${fold('title')}, ${fold('body')} from search_texts`).execute(db);
}

async function sqliteUp(db: Kysely<any>): Promise<void> {
  await refold(db, foldedSql, foldedSql);
}

/** Takes the folding off again: each folded expression back to the one it wrapped. */
async function sqliteDown(db: Kysely<any>): Promise<void> {
  const call = `${SEARCH_FOLD_FUNCTION}(`;
  const unfold = (expression: string) => (expression.startsWith(call) && expression.endsWith(')') ? expression.slice(call.length, -1) : expression);
  await refold(db, unfold, (expression) => expression);
}

export function searchLetters(dialect: DialectName) {
  const nothing = async () => {};
  return dialect === 'sqlite' ? { up: sqliteUp, down: sqliteDown } : { up: nothing, down: nothing };
}
