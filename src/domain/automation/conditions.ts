// Whether a rule's conditions hold for a conversation (docs/automation.md, "Conditions"). Text is
// compared case- and accent-insensitively (`Botón` equals `boton`); on `tags`, `equals` means "has
// the tag", `contains` "has a tag containing", `in` "has any of them", `matches` "a tag matches".
// A `null` value means the field is empty. `matches` conditions are tested last, in the bounded
// regex runner: one that runs out of time does not hold.
import type { Condition, ConditionField } from './automation-vocabulary.js';
import type { RegexRunner } from './regex-safety.js';

/** What conditions read: the conversation's fields, and the contact's message the event is about. */
export type ConditionSubject = Record<Exclude<ConditionField, 'tags'>, string | null> & { tags: string[] };

/** Lower case, accents removed: "Botón" and "BOTON" fold alike. */
export const fold = (text: string): string => text.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC');

/** The field's values: a tag list as it is, a scalar as a list of one (none when empty). */
const valuesOf = (subject: ConditionSubject, field: ConditionField): string[] => {
  if (field === 'tags') return subject.tags;
  const value = subject[field];
  return value === null || value === '' ? [] : [value];
};

function holdsWithoutRegex({ field, operator, value }: Condition, subject: ConditionSubject): boolean {
  const values = valuesOf(subject, field).map(fold);
  switch (operator) {
    case 'equals':
      return value === null ? values.length === 0 : values.includes(fold(value as string));
    case 'not_equals':
      return value === null ? values.length > 0 : !values.includes(fold(value as string));
    case 'in':
      return (value as string[]).some((one) => values.includes(fold(one)));
    case 'contains':
      return value !== null && values.some((one) => one.includes(fold(value as string)));
    case 'matches':
      throw new Error('matches is tested by the regex runner');
  }
}

/** Whether every condition holds (an empty list always does). */
export async function conditionsHold(conditions: readonly Condition[], subject: ConditionSubject, regex: Pick<RegexRunner, 'match'>): Promise<boolean> {
  const patterns = conditions.filter((condition) => condition.operator === 'matches');
  if (!conditions.every((condition) => condition.operator === 'matches' || holdsWithoutRegex(condition, subject))) return false;
  for (const { field, value } of patterns) {
    let matched = false;
    for (const text of valuesOf(subject, field)) if ((await regex.match(value as string, text)) === true) matched = true;
    if (!matched) return false;
  }
  return true;
}
