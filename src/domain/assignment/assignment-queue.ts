// The queue of conversations waiting for a free member (docs/automation.md, "Assignment"): when a
// place may have come free in a product (a member came online, an assigned open conversation was
// closed or reassigned, the settings changed), its waiting conversations are assigned oldest
// first until nobody is free, under the product's assignment lock (src/domain/assignment/assignment.ts),
// each through the conversation write unit (its event, its assignee's notification). Runs after the
// commit that freed the place, in the process that made it; requests for a product while it runs
// ask for one more pass. `sweep` passes over every product with conversations waiting (at start-up,
// for places freed by a process that stopped before its pass).
import type { Db } from '../../db/database.js';
import type { AssignmentRepository } from '../../db/repositories/automation/assignment.repository.js';
import { OPEN_STATUSES } from '../../db/repositories/automation/assignment.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { Assignment } from './assignment.js';

/** Conversations assigned per transaction: the product's lock is let go between batches. */
const BATCH = 50;

export interface AssignmentQueueDeps {
  db: Db;
  assignment: Pick<Assignment, 'pick' | 'holdFor' | 'unwait'>;
  repo: Pick<AssignmentRepository, 'heads' | 'waitingProducts'>;
  conversations: Pick<ConversationRepository, 'findById'>;
  writes: Pick<ConversationWrites, 'lock' | 'update'>;
  onError: (error: unknown) => void;
}

export function createAssignmentQueue({ db, assignment, repo, conversations, writes, onError }: AssignmentQueueDeps) {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const sweeping = new Set<Promise<void>>();

  /** One batch: whether it assigned a whole one (more may be assignable). */
  const assignBatch = (workspaceId: string, productId: string): Promise<boolean> =>
    inTransaction(db, async (work) => {
      await assignment.holdFor(work, productId, true);
      const heads = await repo.heads(productId, BATCH, work.tx);
      for (const head of heads) {
        const at = await writes.lock(work, head.conversation_id);
        const conversation = await conversations.findById(workspaceId, head.conversation_id, work.tx);
        if (!conversation || conversation.assignee_id !== null || !(OPEN_STATUSES as readonly string[]).includes(conversation.status)) {
          await assignment.unwait(work, head.conversation_id);
          continue;
        }
        const member = await assignment.pick(work, workspaceId, productId);
        if (!member) return false;
        await writes.update(work, conversation, { assignee_id: member, updated_at: at });
      }
      return heads.length === BATCH;
    });

  async function drain(workspaceId: string, productId: string): Promise<void> {
    do {
      again.delete(productId);
      while (await assignBatch(workspaceId, productId));
    } while (again.has(productId));
  }

  const queue = {
    /** Assigns the product's waiting conversations while members are free (in the background). */
    request(workspaceId: string, productId: string): Promise<void> {
      const current = running.get(productId);
      if (current) {
        again.add(productId);
        return current;
      }
      const pass = drain(workspaceId, productId).catch(onError).finally(() => running.delete(productId));
      running.set(productId, pass);
      return pass;
    },

    /** Every product of the workspace (all workspaces: null) with conversations waiting. */
    sweep(workspaceId: string | null): Promise<void> {
      const sweep = repo.waitingProducts(workspaceId)
        .then((products) => Promise.all(products.map(({ workspace_id, product_id }) => queue.request(workspace_id, product_id))))
        .then(() => {}, onError)
        .finally(() => sweeping.delete(sweep));
      sweeping.add(sweep);
      return sweep;
    },

    /** Waits for the sweeps and passes running (shutdown, tests). */
    async idle(): Promise<void> {
      while (running.size + sweeping.size > 0) await Promise.all([...running.values(), ...sweeping]);
    },
  };
  return queue;
}

export type AssignmentQueue = ReturnType<typeof createAssignmentQueue>;
