// What the pair classifier looks at for one (conversation, candidate issue): beside the matcher's
// score and its place among the product's candidates, the signs a similarity misses. PAWS-X's
// non-duplicates are the same words in another order (bigrams see it), support reports differ by a
// version or an order number ("iOS 16" / "iOS 17"), by a negation ("arrives" / "never arrives"), or
// are a question and its translation (the language pair says how far a score can be trusted).
import type { IssueText } from '../../../dedup/detector.js';
import { issueText, normalize } from '../../../dedup/text.js';

/**
 * The conversation's text as the classifier compares it: its title and first message, without the
 * title when the message begins with it (a widget chat's title is its first line), so that a
 * repeated report reads the same as the issue it repeats.
 */
export function reportText(report: IssueText): string {
  const title = report.title.trim();
  const message = report.description?.trim();
  return message && message.startsWith(title) ? issueText({ title: message, description: null }) : issueText(report);
}

/** The matcher's view of one shortlisted candidate. */
export interface RankedScore {
  /** The matcher's score (an embedding matcher's includes its no-shared-word bonus). */
  score: number;
  /** The embedding's cosine, for an embedding matcher. */
  cosine?: number;
}

export const FEATURE_NAMES = [
  'score', 'cosine', 'top', 'rank', 'margin', 'same_text', 'word_jaccard', 'word_containment', 'bigram_jaccard', 'order_gap', 'in_order', 'score_in_order',
  'numbers_differ', 'numbers_match', 'negation_differs', 'length_ratio', 'cross_script', 'cjk', 'same_language', 'cross_language',
  'cosine_across', 'margin_across',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Record<FeatureName, number>;

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** What is compared of one text, computed once per text. */
export interface TextSignals {
  normalized: string;
  words: string[];
  wordSet: ReadonlySet<string>;
  bigrams: ReadonlySet<string>;
  /** Numbers, versions and identifiers (anything with a digit, or written like code), lower case. */
  codes: ReadonlySet<string>;
  negated: boolean;
  script: 'latin' | 'cjk' | 'other';
  language: string;
}

// Tokens with a digit ("v2.3", "504", "a1b2"), CamelCase and snake_case names ("NullPointerException", "ERR_TIMEOUT").
const CODE = /[\p{L}\p{N}]*\p{N}[\p{L}\p{N}._/-]*|\b\p{L}*\p{Ll}\p{Lu}[\p{L}\p{N}]*|\b[\p{L}\p{N}]+_[\p{L}\p{N}_]+/gu;

// Negations in the languages of the product's users (words as `normalize` leaves them), and the
// CJK ones, which are parts of words.
const NEGATION_WORDS = new Set([
  'not', 'no', 'never', 'cannot', 'cant', 'dont', 'doesnt', 'didnt', 'isnt', 'wont', 'wasnt', 'arent', 'havent', 'hasnt', 'without', 'nor',
  'nunca', 'ni', 'sin', 'tampoco', 'nada', 'nicht', 'kein', 'keine', 'keinen', 'keiner', 'nie', 'niemals', 'ohne',
  'ne', 'pas', 'jamais', 'sans', 'aucun', 'aucune', 'non', 'mai', 'senza', 'nao', 'sem',
]);
const NEGATION_INSIDE = /n['’]t\b|ない|ません|なかった|不|没|沒|無|无|未|别|別/u;

// A few frequent function words per language: enough to tell which Latin-script language a
// sentence is in (a tie or none: unknown).
const MARKERS: Record<string, readonly string[]> = {
  en: ['the', 'is', 'and', 'of', 'to', 'my', 'it', 'was', 'in', 'for', 'how', 'what', 'why', 'can', 'with', 'you', 'i'],
  es: ['el', 'la', 'es', 'y', 'de', 'que', 'en', 'los', 'mi', 'por', 'como', 'para', 'se', 'una', 'con', 'las', 'del'],
  de: ['der', 'die', 'und', 'ist', 'das', 'ich', 'nicht', 'zu', 'den', 'mit', 'von', 'wie', 'ein', 'im', 'wurde', 'auf', 'sich'],
  fr: ['le', 'la', 'et', 'est', 'les', 'des', 'du', 'je', 'en', 'une', 'pour', 'dans', 'il', 'qui', 'au', 'sur', 'pas'],
  pt: ['o', 'a', 'e', 'de', 'que', 'do', 'da', 'em', 'um', 'nao', 'para', 'com', 'uma', 'os', 'meu', 'foi', 'no'],
  it: ['il', 'di', 'e', 'che', 'la', 'non', 'per', 'un', 'della', 'del', 'sono', 'con', 'mio', 'gli', 'nel', 'una', 'ho'],
};
const MARKER_SETS = Object.entries(MARKERS).map(([language, words]) => [language, new Set(words)] as const);

function scriptOf(text: string): TextSignals['script'] {
  const cjk = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? []).length;
  const latin = (text.match(/\p{Script=Latin}/gu) ?? []).length;
  if (cjk === 0 && latin === 0) return 'other';
  return cjk >= latin ? 'cjk' : 'latin';
}

function languageOf(text: string, words: readonly string[], script: TextSignals['script']): string {
  if (script === 'cjk') return /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? 'ja' : /\p{Script=Hangul}/u.test(text) ? 'ko' : 'zh';
  if (script !== 'latin') return 'und';
  let best = 'und';
  let most = 0;
  let tie = false;
  for (const [language, markers] of MARKER_SETS) {
    const hits = words.reduce((n, word) => n + (markers.has(word) ? 1 : 0), 0);
    if (hits > most) [best, most, tie] = [language, hits, false];
    else if (hits === most && hits > 0) tie = true;
  }
  return tie ? 'und' : best;
}

export function signalsOf(text: string): TextSignals {
  const normalized = normalize(text);
  const words = [...wordSegmenter.segment(normalized)].filter((s) => s.isWordLike).map((s) => s.segment);
  const bigrams = new Set(words.slice(1).map((word, i) => `${words[i]} ${word}`));
  const raw = text.normalize('NFKC');
  const codes = new Set((raw.match(CODE) ?? []).map((code) => code.toLowerCase().replace(/[._/-]+$/, '')));
  const script = scriptOf(raw);
  return {
    normalized, words, wordSet: new Set(words), bigrams, codes, script, language: languageOf(raw, words, script),
    negated: NEGATION_INSIDE.test(raw.toLowerCase()) || words.some((word) => NEGATION_WORDS.has(word)),
  };
}

/** How much of the shared words keep their order: the longest common subsequence over the shared words (1 when none is shared). */
function inOrder(a: readonly string[], b: readonly string[], shared: ReadonlySet<string>): number {
  const x = a.filter((word) => shared.has(word));
  const y = b.filter((word) => shared.has(word));
  if (x.length === 0 || y.length === 0) return 1;
  let previous = new Array<number>(y.length + 1).fill(0);
  for (const word of x) {
    const current = [0];
    for (let j = 1; j <= y.length; j++) current[j] = word === y[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    previous = current;
  }
  return previous[y.length] / Math.max(x.length, y.length);
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared;
}

const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>, shared = overlap(a, b)): number =>
  a.size + b.size === shared ? (a.size === 0 ? 0 : 1) : shared / (a.size + b.size - shared);

/**
 * The features of candidate `at` of a matcher's shortlist (best score first) for the conversation
 * `report`. `rank` and `margin` place the candidate among the others: the best one's margin is its
 * lead over the runner-up, the others' how far they trail the best.
 */
export function featuresOf(report: TextSignals, candidate: TextSignals, shortlist: readonly RankedScore[], at: number): Features {
  const { score, cosine } = shortlist[at];
  const best = at === 0 ? shortlist[1]?.score ?? 0 : shortlist[0].score;
  const sharedWords = overlap(report.wordSet, candidate.wordSet);
  const wordJaccard = jaccard(report.wordSet, candidate.wordSet, sharedWords);
  const bigramJaccard = jaccard(report.bigrams, candidate.bigrams);
  const sharedCodes = overlap(report.codes, candidate.codes);
  const order = inOrder(report.words, candidate.words, new Set([...report.wordSet].filter((word) => candidate.wordSet.has(word))));
  const known = report.language !== 'und' && candidate.language !== 'und';
  const smaller = Math.min(report.wordSet.size, candidate.wordSet.size);
  // A translation shares no words: across languages or scripts only the embedding can vouch for a
  // pair, so its cosine (and the lead over the runner-up) get weights of their own there.
  const across = (known && report.language !== candidate.language) || report.script !== candidate.script ? 1 : 0;
  return {
    score,
    cosine: cosine ?? 0,
    top: at === 0 ? 1 : 0,
    rank: Math.log1p(at),
    margin: score - best,
    same_text: report.normalized === candidate.normalized ? 1 : 0,
    word_jaccard: wordJaccard,
    word_containment: smaller === 0 ? 0 : sharedWords / smaller,
    bigram_jaccard: bigramJaccard,
    order_gap: wordJaccard - bigramJaccard,
    in_order: order,
    score_in_order: score * order,
    numbers_differ: report.codes.size + candidate.codes.size > 2 * sharedCodes ? 1 : 0,
    numbers_match: sharedCodes > 0 && report.codes.size === sharedCodes && candidate.codes.size === sharedCodes ? 1 : 0,
    negation_differs: report.negated === candidate.negated ? 0 : 1,
    length_ratio: Math.min(report.words.length, candidate.words.length) / Math.max(1, report.words.length, candidate.words.length),
    cross_script: report.script === candidate.script ? 0 : 1,
    cjk: report.script === 'cjk' || candidate.script === 'cjk' ? 1 : 0,
    same_language: known && report.language === candidate.language ? 1 : 0,
    cross_language: known && report.language !== candidate.language ? 1 : 0,
    cosine_across: (cosine ?? 0) * across,
    margin_across: (score - best) * across,
  };
}
