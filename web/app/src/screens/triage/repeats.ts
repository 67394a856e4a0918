// The triage panel shows each thing once: the summary only when it tells more than the customer's
// short message right below it, a draft's description only when it is not the summary or the
// title again (docs/triage.md, "What the app shows").

/** A message under this many characters is read at a glance: a summary contained in it adds nothing. */
export const SHORT_MESSAGE = 300;

/** Lower case, punctuation and spacing folded: "Hi, the export FAILS!" and "the export fails" compare as words. */
const folded = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, ' ').trim();

/** Whether `text` is one of `shown` again, or part of one. */
const repeats = (text: string, shown: readonly string[]): boolean => shown.some((other) => folded(other).includes(folded(text)));

/** The contact's messages, as the summary was made from them. */
export type ContactText = readonly string[];

/** Whether the summary is worth showing above these messages: not when it is in them and they are short. */
export function summaryAddsSomething(summary: string | null, contact: ContactText): summary is string {
  if (summary === null || folded(summary) === '') return false;
  const whole = contact.join('\n');
  return [...whole].length >= SHORT_MESSAGE ? folded(summary) !== folded(whole) : !repeats(summary, [whole]);
}

/** Whether a draft's description is worth showing under its title: not the summary shown, the title, or a short message again. */
export function descriptionAddsSomething(description: string | null, { summary, title, contact }: { summary: string | null; title: string; contact: ContactText }): description is string {
  if (description === null || folded(description) === '') return false;
  const shown = [title, ...(summary === null ? [] : [summary])];
  return !repeats(description, shown) && summaryAddsSomething(description, contact);
}
