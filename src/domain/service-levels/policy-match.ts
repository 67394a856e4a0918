// Which SLA policy applies to a conversation (docs/service-levels.md): the first active one, by
// position and then created_at, whose conditions all match. A condition left out matches
// everything; `tags` matches a conversation carrying any of them (compared without case), every
// other list the conversation's one value. Pure, so that whatever applies policies (creating a
// conversation, changing its fields) decides the same way.
import type { ConversationSource, ConversationType, Priority } from '../shared/enums.js';
import { tagKey } from '../tags/tags.js';

export interface SlaConditions {
  product_ids?: string[];
  priorities?: Priority[];
  types?: ConversationType[];
  sources?: ConversationSource[];
  tags?: string[];
}

/** What of a conversation the conditions look at. */
export interface SlaSubject {
  product_id: string;
  priority: Priority;
  type: ConversationType;
  source: ConversationSource;
  tags: readonly string[];
}

export interface RankedPolicy {
  active: boolean;
  position: number;
  created_at: string;
  conditions: SlaConditions;
}

const allows = <T>(list: readonly T[] | undefined, value: T): boolean => list === undefined || list.includes(value);

export function matchesConditions(conditions: SlaConditions, subject: SlaSubject): boolean {
  const tags = conditions.tags && new Set(conditions.tags.map(tagKey));
  return allows(conditions.product_ids, subject.product_id.toLowerCase())
    && allows(conditions.priorities, subject.priority)
    && allows(conditions.types, subject.type)
    && allows(conditions.sources, subject.source)
    && (tags === undefined || subject.tags.some((tag) => tags.has(tagKey(tag))));
}

const byRank = (x: RankedPolicy, y: RankedPolicy): number =>
  x.position - y.position || (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : 0);

/** The policy that applies to `subject`, or null when no active policy matches. */
export function applicablePolicy<Policy extends RankedPolicy>(policies: readonly Policy[], subject: SlaSubject): Policy | null {
  return [...policies].filter((policy) => policy.active).sort(byRank).find((policy) => matchesConditions(policy.conditions, subject)) ?? null;
}
