// A draft issue's title from a conversation, without a chat model: what is broken, in at most 80
// characters, in the customer's words. It is the summarizer's best sentence, twice as likely when
// it says something is broken (greetings, thanks and asides are never candidates), shortened: a
// sentence too long gives its most telling run of clauses that fits (or one cut at a word, "…"), a
// lead-in like "I can't" loses its subject, and an error code the customer gave elsewhere is added
// when there is room.
import { rankedSentences, type ExtractiveOptions } from './extractive.js';
import { cutAtWord, lengthOf } from './sentences.js';
import { errorCodesOf, problemsOf, salienceOf } from './specifics.js';

export const ISSUE_TITLE_MAX = 80;

/** "Re:", "AW:", "Fwd:", "RV:"… before an email's subject. */
const REPLY_PREFIX = /^(?:(?:re|aw|wg|fw|fwd|rv|tr|enc|r|sv|antw)\s*:\s*)+/iu;
/** English's first person before "can't": an issue title has no subject ("Can't log in with Google"). */
const FIRST_PERSON = /^(?:i|we)\s+(?=(?:can't|cannot|can not|couldn't|am unable|are unable|no longer|still can't)\b)/iu;
const AM_ARE_UNABLE = /^(?:am|are) unable/iu;
/** Where a long sentence may be cut: after a comma, a colon, a semicolon or a dash, or before a conjunction (which is dropped). */
const CLAUSE_BREAK = /(?:[,;:]|\s[–—-])\s+(?:(?:and|but|y|pero|und|aber|et|mais|e|ma)\s+)?|\s+(?:and|but|y|pero|und|aber|et|mais|e|ma)\s+/giu;
/** A clause that opens with one of these depends on another: never a title's start. */
const SUBORDINATE = /^(?:when|whenever|because|which|although|though|while|if|cuando|porque|aunque|si|que|weil|wenn|obwohl|dass|als|dabei|quand|parce|quando|perché|se)(?!\p{L})/iu;

export interface TitleSource {
  /** The conversation's title: a form's or an email's subject, or its first message's first line. */
  title: string;
  /** The contact's first message, when there is one. */
  text: string | null;
}

/** The sentence as a title: no trailing full stop, no first-person subject, first letter in upper case. */
function titled(sentence: string): string {
  const text = sentence.replace(/[\s.,;:!]+$/u, '').replace(FIRST_PERSON, '').replace(AM_ARE_UNABLE, 'Unable');
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** The sentence's clauses, as [start, end) offsets: split at CLAUSE_BREAK, the break left out. */
function clausesOf(sentence: string): Array<[number, number]> {
  const clauses: Array<[number, number]> = [];
  let from = 0;
  for (const found of sentence.matchAll(CLAUSE_BREAK)) {
    const before = sentence.slice(0, found.index);
    // Not inside parentheses: "(Madrid, UTC+2)" is one aside.
    if ((before.match(/\(/g)?.length ?? 0) > (before.match(/\)/g)?.length ?? 0)) continue;
    if (found.index > from) clauses.push([from, found.index]);
    from = found.index + found[0].length;
  }
  if (from < sentence.length) clauses.push([from, sentence.length]);
  return clauses;
}

/** A run of clauses shorter than this many words is a fragment ("UTC+2"), not a title. */
const FEWEST_WORDS = 3;

/**
 * `sentence` within `max` characters: whole, else the most telling (salience; then whole before
 * cut at a word; then length) of its runs of adjacent clauses, cut at a word when too long. A run
 * never starts with a dependent clause ("when…", "obwohl…") unless the sentence does.
 */
function shortened(sentence: string, max: number, locale: string | undefined): string {
  if (lengthOf(sentence) <= max) return sentence;
  const clauses = clausesOf(sentence);
  const runs = clauses.flatMap(([start], i) => (start > 0 && SUBORDINATE.test(sentence.slice(start)) ? [] : clauses.slice(i).map(([, end]) => sentence.slice(start, end))))
    .filter((run) => run.split(/\s+/u).length >= FEWEST_WORDS)
    .map((run) => ({ text: lengthOf(run) <= max ? run : cutAtWord(run, max, locale), whole: lengthOf(run) <= max }));
  const [best] = runs.sort((a, b) => salienceOf(b.text) - salienceOf(a.text) || Number(b.whole) - Number(a.whole) || lengthOf(b.text) - lengthOf(a.text));
  return best?.text ?? cutAtWord(sentence, max, locale);
}

/**
 * The conversation's issue title, or null when it says nothing (whitespace only). The title is a
 * candidate too when the customer gave one apart from the message (a form's title, an email's
 * subject without its "Re:"); a title that is the message's first line adds nothing.
 */
export async function issueTitle(source: TitleSource, options: Omit<ExtractiveOptions, 'maxLength'> = {}): Promise<string | null> {
  const subject = source.title.replace(REPLY_PREFIX, '').trim();
  const own = source.text !== null && source.text.trim().startsWith(source.title.trim());
  const texts = [...(own || subject === '' ? [] : [subject]), ...(source.text === null ? [] : [source.text])];
  const ranked = await rankedSentences(texts, options);
  const [best] = ranked.map((sentence) => ({ ...sentence, score: sentence.score * (problemsOf(sentence.text) > 0 ? 2 : 1) })).sort((a, b) => b.score - a.score);
  if (!best) return null;
  const title = titled(shortened(best.text, ISSUE_TITLE_MAX, options.locale));
  if (title.endsWith('…')) return title;
  const missing = ranked.flatMap((sentence) => errorCodesOf(sentence.text)).find((code) => !title.includes(code));
  const withCode = missing && `${title} (${missing})`;
  return withCode && lengthOf(withCode) <= ISSUE_TITLE_MAX ? withCode : title;
}
