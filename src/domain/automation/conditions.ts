// Whether a rule's conditions hold for a conversation (docs/automation.md, "Conditions"). Text is
// compared case- and accent-insensitively (`Botón` equals `boton`); on `tags`, `equals` means "has
// the tag", `contains` "has a tag containing", `in` "has any of them", `matches` "a tag matches".
// A `null` value means the field is empty. `matches` conditions are tested last, in the bounded
// regex runner: one that runs out of time does not hold. A rule's conditions are compiled once
// (their values folded, `in`'s lists made sets) and a subject folds each field it is asked for once,
// so testing 50 rules against one event folds its message once, not once per rule.
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

/** A subject as conditions test it: its values as they are (for patterns) and folded, each field folded on first use. */
export interface TestedSubject {
  values(field: ConditionField): string[];
  folded(field: ConditionField): string[];
}

export function testedSubject(subject: ConditionSubject): TestedSubject {
  const folded = new Map<ConditionField, string[]>();
  return {
    values: (field) => valuesOf(subject, field),
    folded(field) {
      let values = folded.get(field);
      if (!values) folded.set(field, (values = valuesOf(subject, field).map(fold)));
      return values;
    },
  };
}

type Test = (subject: TestedSubject) => boolean;

/** A rule's conditions ready to test: the plain ones as tests over folded values, the patterns apart (tested last). */
export interface CompiledConditions {
  readonly plain: readonly Test[];
  readonly patterns: readonly { field: ConditionField; pattern: string }[];
  /** The fields the conditions read. */
  readonly fields: ReadonlySet<ConditionField>;
}

function compileOne({ field, operator, value }: Condition): Test {
  switch (operator) {
    case 'equals': {
      if (value === null) return (subject) => subject.folded(field).length === 0;
      const needle = fold(value as string);
      return (subject) => subject.folded(field).includes(needle);
    }
    case 'not_equals': {
      if (value === null) return (subject) => subject.folded(field).length > 0;
      const needle = fold(value as string);
      return (subject) => !subject.folded(field).includes(needle);
    }
    case 'in': {
      const needles = new Set((value as string[]).map(fold));
      return (subject) => subject.folded(field).some((one) => needles.has(one));
    }
    case 'contains': {
      if (value === null) return () => false;
      const needle = fold(value as string);
      return (subject) => subject.folded(field).some((one) => one.includes(needle));
    }
    case 'matches':
      throw new Error('matches is tested by the regex runner');
  }
}

export function compileConditions(conditions: readonly Condition[]): CompiledConditions {
  return {
    plain: conditions.filter((condition) => condition.operator !== 'matches').map(compileOne),
    patterns: conditions.filter((condition) => condition.operator === 'matches').map(({ field, value }) => ({ field, pattern: value as string })),
    fields: new Set(conditions.map((condition) => condition.field)),
  };
}

/** Whether the conditions may hold: every one but the patterns does (no regular expression is run). */
export const mayHold = ({ plain }: CompiledConditions, subject: TestedSubject): boolean => plain.every((test) => test(subject));

/** Whether every condition holds (an empty list always does). */
export async function conditionsHold(conditions: CompiledConditions, subject: TestedSubject, regex: Pick<RegexRunner, 'match'>): Promise<boolean> {
  if (!mayHold(conditions, subject)) return false;
  const { patterns } = conditions;
  for (const { field, pattern } of patterns) {
    let matched = false;
    for (const text of subject.values(field)) if ((matched = (await regex.match(pattern, text)) === true)) break;
    if (!matched) return false;
  }
  return true;
}
