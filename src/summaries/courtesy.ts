// What a support message says besides its point: greetings, thanks, sign-offs and the name under
// them, pleasantries, requests to look into it, the quoted history of a reply, and the filler that
// opens a sentence ("Unfortunately", "Les escribo porque", "Leider"). Small lists per language
// (English, Spanish, German, French, Portuguese, Italian: the languages the summarizer's function
// words cover); a phrase matches at the start of a sentence or line, in any case.
import EmailReplyParser from 'email-reply-parser';

const alternatives = (...phrases: string[]) => phrases.join('|');

const GREETINGS = alternatives(
  'hi there', 'hello there', 'hey there', 'hi', 'hello', 'hey', 'hiya', 'howdy', 'greetings', 'dear', 'good (?:morning|afternoon|evening|day)',
  'hola', 'buenas', 'buenos días', 'buenas (?:tardes|noches)', 'muy buenas', 'estimad[oa]s?', 'qué tal',
  'hallo', 'moin', 'servus', 'grüß gott', 'grüezi', 'guten (?:morgen|tag|abend)', 'liebe[rs]?', 'sehr geehrte[rs]?', 'werte[rs]?',
  'bonjour', 'bonsoir', 'salut', 'coucou', 'cher', 'chère',
  'olá', 'oi', 'bom dia', 'boa (?:tarde|noite)', 'prezad[oa]s?',
  'ciao', 'salve', 'buongiorno', 'buonasera', 'gentile', 'egregi[oa]',
);

/** Words that may follow a greeting before its comma besides names: "Hi team,", "Hola equipo de soporte:", "Sehr geehrte Damen und Herren,". */
const ADDRESSEES = alternatives(
  'all', 'team', 'everyone', 'folks', 'guys', 'there', 'support', 'and', 'equipo', 'de', 'soporte', 'todos', 'a', 'y', 'zusammen', 'und',
  'liebes', 'à', 'tous', 'et', 'equipe', 'todos', 'e', 'tutti',
);

/** Openers of thanks, sign-offs and pleasantries; a sentence starting with one says nothing about the problem unless more follows. */
const COURTESIES = alternatives(
  'thanks?', 'thank you', 'thx', 'ty', 'many thanks', 'cheers', 'best(?= *,|$| regards| wishes)', '(?:best|kind|warm|warmest) regards', 'regards',
  'sincerely', 'all the best', 'have a (?:nice|great|good) (?:day|weekend|one)', 'looking forward', '(?:i )?hope (?:you|all|this|everything)',
  'appreciate (?:it|your help|any help)', 'much appreciated', 'sent from my',
  'gracias', 'muchas gracias', 'mil gracias', 'saludos', 'un saludo', 'un abrazo', 'atentamente', 'cordialmente', 'quedo (?:atent[oa]|a la espera)',
  'espero (?:que est|sus noticias|su respuesta|tu respuesta)', 'que tengan', 'enviado desde mi', 'de antemano',
  'danke', 'vielen dank', 'besten dank', 'herzlichen dank', 'dankeschön', '(?:viele|liebe|beste|freundliche|schöne|sonnige|herzliche) grüße',
  'mit (?:freundlichen|besten|herzlichen) grüßen', String.raw`(?:mfg|lg|vg)(?=\s*,|\s*$|\s+\p{Lu}\p{L}*\s*$)`, 'gruß', 'grüße', 'ich hoffe,? (?:es geht|ihr|sie|alles)', 'ich freue mich',
  '(?:einen )?schönen (?:tag|abend)', 'von meinem', 'gesendet von',
  'merci', 'cordialement', 'bien à vous', 'bonne (?:journée|soirée)', 'obrigad[oa]', 'atenciosamente', 'abraços', 'cumprimentos',
  'grazie', '(?:cordiali|distinti) saluti', 'saluti',
);

/** Requests that the message be looked at: asides, whatever the problem is. */
const REQUESTS = alternatives(
  '(?:could|can|would) (?:you|someone|somebody) (?:please )?(?:help|look|check|have a look|take a look|advise|get back|let (?:me|us) know|fix|investigate)',
  'please (?:help|advise|get back|let (?:me|us) know|look into|check|fix|investigate)', 'any (?:ideas?|help|update|news)',
  'is (?:this|that) a known (?:issue|problem|bug)', 'let (?:me|us) know', '(?:this is|it is|it\'s) urgent',
  '¿?(?:me |nos )?(?:pueden|podrían|puede|podría|podéis|podrías?) (?:ayudar|revisar|echar|mirar|indicar|decir)', 'por favor,? (?:ayúd|revis|ayud)',
  '¿?(?:es|se trata de) (?:un|algo) (?:problema|error|fallo) conocido', 'es urgente',
  '(?:können|könnten|kannst|könntet) (?:sie|ihr|du) (?:uns |mir )?(?:bitte )?(?:schnell )?(?:helfen|nachsehen|prüfen|sich das)',
  'bitte um (?:hilfe|rückmeldung|prüfung)', 'ist (?:das|dies) ein bekanntes (?:problem|thema)', 'es ist dringend',
);

/** Openers that only lead into the point: dropped, the rest of the sentence kept. */
const FILLERS = alternatives(
  'unfortunately', 'sadly', 'however', 'also', 'so', 'basically', 'apparently', 'btw', 'by the way', 'quick (?:one|question)', 'one more thing',
  'just (?:a )?heads up', 'fyi', 'i (?:just )?wanted to (?:let you know|flag|report|mention|say)(?: that)?',
  'lamentablemente', 'desafortunadamente', 'por desgracia', 'sin embargo', 'además', 'solo una cosa', 'una pregunta', 'les escribo porque',
  'les escribo para (?:comentar|informar)(?:les)? que', 'quería (?:comentarles|comentar|informarles|decirles) que', 'resulta que', 'les cuento que',
  'leider', 'übrigens', 'außerdem', 'kurze frage', 'noch eine kleinigkeit', 'eine sache noch', 'dringend',
  'ich wollte (?:kurz )?(?:mitteilen|melden|fragen|sagen),? dass', 'ich schreibe (?:ihnen|euch),? weil',
  'malheureusement', 'cependant', 'infelizmente', 'porém', 'purtroppo', 'però',
);

const END = String.raw`(?=[\s\p{P}]|$)`;
const NAME = String.raw`(?:\p{Lu}[\p{L}'’-]*|${ADDRESSEES})`;
/** A greeting and whom it greets, up to its punctuation: "Hi,", "Hi Maria,", "Dear Loopdesk team,", "Hallo zusammen,". */
const GREETING_PREFIX = new RegExp(String.raw`^(?:${GREETINGS})${END}(?:\s+${NAME}){0,4}\s*(?:[,!.:;—–]+\s*|$)`, 'iu');
const COURTESY_OPENER = new RegExp(String.raw`^(?:${COURTESIES})${END}`, 'iu');
const REQUEST_OPENER = new RegExp(String.raw`^(?:${REQUESTS})`, 'iu');
const FILLER_PREFIX = new RegExp(String.raw`^(?:${FILLERS})${END}\s*[,:—–]?\s+`, 'iu');
/** A list item's bullet or number: "- ", "* ", "1. ", "2) ". */
const BULLET = /^(?:[-*•]|\d{1,2}[.)])\s+/u;
/** Separators of a forwarded or quoted message that email-reply-parser does not know. */
const ORIGINAL_MESSAGE = /^\s*-{2,}\s*(?:original message|mensaje original|ursprüngliche nachricht|message d'origine|mensagem original|messaggio originale|forwarded message|mensaje reenviado|weitergeleitete nachricht)\s*-{2,}/imu;

/** The message without the quoted history of a reply, a forwarded original, or a signature block. */
export function ownText(text: string): string {
  const separator = ORIGINAL_MESSAGE.exec(text);
  const before = separator ? text.slice(0, separator.index) : text;
  return new EmailReplyParser().read(before).getVisibleText().trim() || before.trim();
}

/** `sentence` without a leading greeting, filler or bullet, first letter in upper case; "" when nothing else was there. */
export function withoutOpeners(sentence: string): string {
  let rest = sentence.trim();
  for (let previous = ''; previous !== rest;) {
    previous = rest;
    rest = rest.replace(GREETING_PREFIX, '').replace(FILLER_PREFIX, '').replace(BULLET, '').trim();
  }
  return rest === sentence.trim() ? rest : capitalized(rest);
}

const capitalized = (text: string): string => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** Words of a clause, for telling a name after "Thanks," from a clause that carries the point. */
const wordCount = (text: string): number => text.split(/\s+/u).filter((word) => /\p{L}|\p{N}/u.test(word)).length;

/**
 * What is left of a sentence that opens with thanks, a sign-off or a pleasantry: the clause after it
 * when it carries the point ("Thanks for the reply, but the export still fails" → "the export
 * still fails"), else "" ("Thanks in advance!", "Best regards, Ana", "Hope you're well.").
 * Any other sentence is returned as it is.
 */
export function withoutCourtesy(sentence: string): string {
  if (!COURTESY_OPENER.test(sentence)) return sentence;
  const clause = /[,;:]\s*(?:(?:but|aber|pero|mais|mas|ma|however|sin embargo)\s+)?(.+)$/iu.exec(sentence);
  const rest = clause?.[1] ?? '';
  return wordCount(rest) > 3 ? capitalized(rest) : '';
}

/** Whether a sentence only asks for attention ("Could you look into it?", "¿Me pueden ayudar?", "Ist das ein bekanntes Problem?"). */
export const isRequestAside = (sentence: string): boolean => REQUEST_OPENER.test(sentence);

/**
 * The text without its sign-off and what follows it (a name, a company, a phone number): from the
 * first line that is a sign-off on its own, when at most five short lines follow it.
 */
export function withoutSignOff(text: string): string {
  const lines = text.split(/\r\n|\r|\n/u);
  const at = lines.findIndex((line, i) => isSignOff(line) && isSignature(lines.slice(i + 1)));
  return at < 0 ? text : lines.slice(0, at).join('\n');
}

const isSignature = (lines: readonly string[]): boolean => {
  const written = lines.filter((line) => line.trim() !== '');
  return written.length <= 5 && written.every((line) => line.length <= 60);
};

/** Whether a line is a sign-off on its own ("Best regards,", "Saludos", "Mit freundlichen Grüßen", "LG Tim"). */
export const isSignOff = (line: string): boolean => COURTESY_OPENER.test(line.trim()) && withoutCourtesy(line.trim()) === '' && wordCount(line) <= 5;
