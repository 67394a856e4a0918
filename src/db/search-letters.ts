// The letters PostgreSQL's `unaccent` folds to others but SQLite's `unicode61 remove_diacritics 2`
// keeps as they are (ß and ss, æ and ae, ø and o, ł and l, …): on SQLite the index's words and a
// query's words are folded by this one function (docs/search.md, "Both databases alike"). The index
// triggers call it as an SQL function the server registers on every connection it opens, not as
// nested replace() calls: 28 of them overflowed the parser of older SQLite (3.36, 3.40: "parser
// stack overflow"), so a backup could not be opened by the SQLite a distribution ships.

/**
 * The letters, upper and lower case, of living orthographies (German, the Nordic languages,
 * Polish, Croatian and Serbian, Icelandic, French, Dutch, Turkish, Maltese, Sami) that unaccent
 * folds and unicode61 does not, and what they fold to (unicode61 lowercases what is left).
 */
export const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ĳ: 'ij', Ĳ: 'ij', ø: 'o', Ø: 'o', ð: 'd', Ð: 'd', þ: 'th', Þ: 'th',
  đ: 'd', Đ: 'd', ħ: 'h', Ħ: 'h', ı: 'i', ĸ: 'q', ŀ: 'l', Ŀ: 'l', ł: 'l', Ł: 'l', ŋ: 'n', Ŋ: 'n', ŧ: 't', Ŧ: 't',
};

const FOLDED = new RegExp(`[${Object.keys(FOLDED_LETTERS).join('')}]`, 'gu');

/** The text with those letters folded. */
export const foldLetters = (text: string): string => text.replace(FOLDED, (letter) => FOLDED_LETTERS[letter]!);

/** The SQL function the index triggers call (registered by src/db/dialect.ts on every SQLite connection). */
export const SEARCH_FOLD_FUNCTION = 'loopdesk_search_fold';

/** SQL folding what `expression` gives. */
export const foldedSql = (expression: string): string => `${SEARCH_FOLD_FUNCTION}(${expression})`;

/** Gives a SQLite connection the fold the schema's index triggers call (every connection that may write needs it). */
export function registerSearchFold(database: Pick<import('better-sqlite3').Database, 'function'>): void {
  database.function(SEARCH_FOLD_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldLetters(text) : text));
}
