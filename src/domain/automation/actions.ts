// Running a list of actions on one conversation (docs/automation.md, "Actions"): a rule's or a
// macro's, in the caller's transaction, with the conversation's lock held. Everything goes through
// the conversation write unit: notes and replies are messages of their own (in the order given),
// the field changes are gathered and written once at the end, so a run records one
// conversation.updated (with `previous`) whatever number of actions it took. A member or saved
// reply deleted since the actions were saved is a validation_error naming the action's place.
import type { ConversationChanges, ConversationRepository, ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { Dialect } from '../../db/dialect.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import { holdAssignee } from '../accounts/member-ref.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { SavedReplyRepository } from '../../db/repositories/saved-reply.repository.js';
import { invalidField } from '../../errors.js';
import { agentMessage, mailOf, MESSAGE_BODY_MAX, type AgentSender, type ConversationServiceDeps } from '../conversations/conversation.service.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import { fillPlaceholders, placeholderValues } from '../saved-replies/placeholders.js';
import { effectiveChanges } from '../shared/changes.js';
import type { Work } from '../shared/unit-of-work.js';
import { normalizeTags, parseTags, tagKey, TAGS_MAX } from '../tags/tags.js';
import type { Assignment } from '../assignment/assignment.js';
import { ROUND_ROBIN, type Action } from './automation-vocabulary.js';

export interface ActionRunnerDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  writes: Pick<ConversationWrites, 'lock' | 'addMessage' | 'update'>;
  conversations: Pick<ConversationRepository, 'findById'>;
  members: Pick<MemberRepository, 'findById'>;
  products: Pick<ProductRepository, 'findById'>;
  savedReplies: Pick<SavedReplyRepository, 'findById'>;
  replyMail: ConversationServiceDeps['replyMail'];
  assignment: Pick<Assignment, 'pick' | 'wait'>;
}

/** Who runs the actions: the messages' sender, and the member told as the assigner (null for a rule). */
export interface Performer extends AgentSender {
  memberId: string | null;
}

type FieldState = Required<Pick<ConversationChanges, 'status' | 'priority' | 'assignee_id'>> & { tags: string[] };

export function createActionRunner({ dialect, writes, conversations, members, products, savedReplies, replyMail, assignment }: ActionRunnerDeps) {
  /** A saved reply filled for this conversation, its sender's name as `{{agent.name}}`. */
  async function replyText(work: Work, conversation: ConversationWithContactRow, savedReplyId: string, performer: Performer, place: string): Promise<string> {
    const [reply, product] = await Promise.all([
      savedReplies.findById(conversation.workspace_id, savedReplyId, work.tx),
      products.findById(conversation.workspace_id, conversation.product_id, work.tx),
    ]);
    if (!reply) throw invalidField(`${place}.saved_reply_id`, 'is no longer a saved reply of this workspace');
    const text = fillPlaceholders(reply.body, placeholderValues({ contactName: conversation.contact_name, agentName: performer.name, productName: product?.name ?? '' }));
    if (text.trim() === '' || [...text].length > MESSAGE_BODY_MAX) throw invalidField(`${place}.saved_reply_id`, `fills to a blank text or one over ${MESSAGE_BODY_MAX} characters`);
    return text;
  }

  /** One action: a message posted now, or the field state moved on. */
  async function perform(work: Work, conversation: ConversationWithContactRow, action: Action, state: FieldState, performer: Performer, place: string, at: string) {
    const post = async (body: string, internal: boolean) => {
      const mail = internal ? undefined : mailOf(conversation, replyMail);
      await writes.addMessage(work, { row: agentMessage(performer, conversation.id, body, { internal, mail, at, replyMail }), mail });
    };
    switch (action.type) {
      case 'assign':
        if (action.member_id === ROUND_ROBIN) {
          // The product's next free member (its lock was taken before the conversation's); nobody free: it waits in the queue.
          const member = await assignment.pick(work, conversation.workspace_id, conversation.product_id);
          if (member) state.assignee_id = member;
          else if (state.assignee_id === null) await assignment.wait(work, conversation, at);
          return;
        }
        // The assignee already is a member (removing one unassigns their conversations first): only
        // another is checked, under the lock the write takes for it (so the write checks no more).
        await holdAssignee(dialect, members, work, conversation.workspace_id, action.member_id, state.assignee_id, `${place}.member_id`);
        state.assignee_id = action.member_id;
        return;
      case 'add_tags':
        state.tags = normalizeTags([...state.tags, ...action.tags], `${place}.tags`);
        if (state.tags.length > TAGS_MAX) throw invalidField(`${place}.tags`, `would leave the conversation with more than ${TAGS_MAX} tags`);
        return;
      case 'remove_tags': {
        const removed = new Set(action.tags.map(tagKey));
        state.tags = state.tags.filter((tag) => !removed.has(tagKey(tag)));
        return;
      }
      case 'set_priority':
        state.priority = action.priority;
        return;
      case 'set_status':
        state.status = action.status;
        return;
      case 'add_note':
        return post(action.body, true);
      case 'reply':
        return post(await replyText(work, conversation, action.saved_reply_id, performer, place), false);
    }
  }

  return {
    /**
     * Runs `actions` in order on `conversation` (read after taking its lock, which `work` holds);
     * the conversation's row as they left it, or null when nothing changed.
     */
    async run(work: Work, conversation: ConversationWithContactRow, actions: readonly Action[], performer: Performer): Promise<ConversationWithContactRow | null> {
      const at = await writes.lock(work, conversation.id);
      const state: FieldState = {
        status: conversation.status, priority: conversation.priority, assignee_id: conversation.assignee_id, tags: parseTags(conversation.tags),
      };
      let posted = false;
      for (const [index, action] of actions.entries()) {
        await perform(work, conversation, action, state, performer, `actions[${index}]`, at);
        posted ||= action.type === 'add_note' || action.type === 'reply';
      }
      // The messages moved the row's list fields: the change is written over the row as they left it.
      const current = posted ? (await conversations.findById(conversation.workspace_id, conversation.id, work.tx))! : conversation;
      const changes = effectiveChanges<ConversationChanges>(current, { ...state, tags: JSON.stringify(state.tags) });
      if (changes) return writes.update(work, current, { ...changes, updated_at: at }, performer.memberId);
      return posted ? current : null;
    },
  };
}

export type ActionRunner = ReturnType<typeof createActionRunner>;
