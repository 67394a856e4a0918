// What makes a sentence of a support message worth keeping: specifics (numbers, error codes,
// versions, quoted error messages, devices and platforms) and words that say something is broken,
// in the languages the summarizer knows (English, Spanish, German, French, Portuguese, Italian).

/** Runs of letters, digits and inner `. , : / -` holding a digit ("403", "4.2", "INV-20931", "14:00", "v2.3.0"). */
const NUMBER_LIKE = /[\p{L}\p{N}_]+(?:[.,:/-][\p{L}\p{N}_]+)*/gu;
/** Upper-case identifiers with an underscore: "ERR_SYNC_TIMEOUT". */
const IDENTIFIER = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;
/** A quoted message: what the customer saw, word for word. */
const QUOTED = /["“„«][^"“”„«»]{3,}["”“»]/gu;
const PLATFORMS = new RegExp(String.raw`(?<!\p{L})(?:${[
  'iphone', 'ipad', 'ipados', 'ios', 'android', 'pixel', 'samsung', 'galaxy', 'xiaomi', 'redmi', 'huawei', 'oneplus', 'motorola', 'nokia',
  'windows', 'macos', 'mac', 'macbook', 'linux', 'ubuntu', 'chromebook', 'chrome', 'firefox', 'safari', 'edge', 'opera', 'brave', 'tablet',
].join('|')})(?!\p{L})`, 'giu');

/** Phrases that say something is broken; a phrase matches at a word's start ("crash" in "crashes", "fehl" in "fehlt"). */
const PROBLEMS = new RegExp(String.raw`(?<!\p{L})(?:${[
  // English
  'error', 'fail', 'crash', 'broke', 'bug', 'cannot', 'can\'?t', 'can not', 'couldn\'?t', 'unable', 'stuck', 'freez', 'froze', 'hang', 'blank',
  'missing', 'wrong', 'lost', 'gone', 'locked', 'timeout', 'timed out', 'reject', 'denied', 'invalid', 'doesn\'?t', 'don\'?t', 'didn\'?t',
  'won\'?t', 'ignor', 'not working', 'no longer', 'never', 'twice', 'duplicate', 'disappear', 'empty', 'slow', 'refused', 'still',
  // Spanish
  'falla', 'fallo', 'no funciona', 'no puedo', 'no podemos', 'no se puede', 'no carga', 'no abre', 'no llega', 'no aparece', 'no encuentra',
  'no reciben', 'no recibo', 'se cierra', 'se qued', 'bloque', 'vací', 'duplicad', 'dos veces', 'lento', 'perdid', 'desaparec', 'sigue sin',
  'ya no', 'tapa', 'incorrect',
  // German
  'fehler', 'fehl', 'funktioniert nicht', 'funktionieren nicht', 'geht nicht', 'kann nicht', 'können nicht', 'stürzt', 'absturz', 'hängt',
  'friert', 'leer', 'doppelt', 'gesperrt', 'ausgesperrt', 'verschwunden', 'gelöscht', 'langsam', 'nicht mehr', 'nie ', 'lehnt', 'abgelehnt',
  'ungültig', 'bricht', 'falsch', 'nicht angezeigt', 'nicht zu sehen', 'immer noch',
  // French, Portuguese, Italian
  'erreur', 'ne fonctionne pas', 'bloqué', 'plante', 'erro', 'não funciona', 'travou', 'trava', 'errore', 'non funziona', 'bloccat',
].join('|')})`, 'giu');

/** The numbers and codes of a text, as written. */
export function numbersOf(text: string): string[] {
  return [...text.matchAll(NUMBER_LIKE)].map(([token]) => token).filter((token) => /\p{N}/u.test(token) || IDENTIFIER.test(token));
}

/** How many specifics a sentence holds: numbers and codes, quoted messages, devices and platforms. */
export function specificsOf(sentence: string): number {
  return numbersOf(sentence).length + (sentence.match(QUOTED)?.length ?? 0) + (sentence.match(PLATFORMS)?.length ?? 0);
}

/** How many phrases of a sentence say that something is broken. */
export const problemsOf = (sentence: string): number => sentence.match(PROBLEMS)?.length ?? 0;

/** How telling a sentence is, whatever its place: 1, more for each specific (up to 3) and problem phrase (up to 2). */
export const salienceOf = (sentence: string): number => (1 + 0.6 * Math.min(specificsOf(sentence), 3)) * (1 + 0.8 * Math.min(problemsOf(sentence), 2));

/** Words that make a three-digit number near them an error status: "error 403", "failing with 502", "mit 503 fehl". */
const ERROR_CONTEXT = /(?<!\p{L})(?:error|erro|errore|erreur|fehler|fehl|fail|falla|fallo|code|código|codigo|status|http)/iu;

/**
 * The error codes of a sentence, as written: HTTP statuses (4xx, 5xx) beside a word like "error",
 * upper-case identifiers ("ERR_SYNC_TIMEOUT"), codes of two letters or more and three digits or
 * more ("AADSTS50011"), and hexadecimal ones ("0x80070005").
 */
export function errorCodesOf(sentence: string): string[] {
  const statuses = ERROR_CONTEXT.test(sentence);
  return numbersOf(sentence).filter((token) =>
    (statuses && /^[45]\d\d$/.test(token)) || IDENTIFIER.test(token) || /^0x[0-9a-f]{4,}$/i.test(token)
    || (/^[A-Z0-9]+$/.test(token) && (token.match(/[A-Z]/g)?.length ?? 0) >= 2 && (token.match(/\d/g)?.length ?? 0) >= 3));
}
