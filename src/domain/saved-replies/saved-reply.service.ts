// Saved replies (docs/inbox.md): the team's ready answers. Every member reads them and posts them
// (POST /conversations/{id}/messages with saved_reply_id); creating, changing and deleting them
// needs the settings role, so that what the team answers stays the lead's call.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import type { SavedReplyChanges, SavedReplyRepository, SavedReplyRow } from '../../db/repositories/saved-reply.repository.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import { updateUnderLock } from '../shared/changes.js';

export interface SavedReply {
  id: string;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface SavedReplyInput {
  title: string;
  body: string;
}

const toSavedReply = ({ id, title, body, created_at, updated_at }: SavedReplyRow): SavedReply => ({ id, title, body, created_at, updated_at });

export interface SavedReplyServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  savedReplies: SavedReplyRepository;
  clock: Clock;
}

export function createSavedReplyService({ db, dialect, savedReplies, clock }: SavedReplyServiceDeps) {
  async function find(actor: Actor, id: string, tx = db): Promise<SavedReplyRow> {
    const replyId = parseUuid(id);
    const row = replyId ? await savedReplies.findById(actor.workspaceId, replyId, tx) : undefined;
    if (!row) throw notFound('saved reply');
    return row;
  }

  return {
    /** Creating, changing and deleting saved replies: owners, admins and keys without a member (403 otherwise). */
    authorizeWrite(actor: Actor): void {
      requireSettingsRole(actor, 'changes to saved replies');
    },

    /** Throws not_found unless the saved reply exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    get: async (actor: Actor, id: string): Promise<SavedReply> => toSavedReply(await find(actor, id)),

    async list(actor: Actor, page: Page): Promise<PageOf<SavedReply>> {
      const { rows, total } = await savedReplies.list(actor.workspaceId, page);
      return { rows: rows.map(toSavedReply), total };
    },

    async create(actor: Actor, input: SavedReplyInput): Promise<SavedReply> {
      const now = clock.now();
      const row: SavedReplyRow = { id: newId(), workspace_id: actor.workspaceId, title: input.title, body: input.body, created_at: now, updated_at: now };
      await savedReplies.insert(row);
      return toSavedReply(row);
    },

    /** updated_at moves only when something changes. */
    async update(actor: Actor, id: string, input: Partial<SavedReplyInput>): Promise<SavedReply> {
      const { id: replyId } = await find(actor, id);
      const { current, changes } = await updateUnderLock<SavedReplyRow, SavedReplyChanges>({ db, dialect, clock }, {
        lockKey: `saved_reply:${replyId}`,
        read: (tx) => find(actor, replyId, tx),
        wanted: { title: input.title, body: input.body },
        write: (work, _current, changes) => savedReplies.update(actor.workspaceId, replyId, changes, work.tx),
      });
      return toSavedReply({ ...current, ...changes });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const replyId = parseUuid(id);
      if (!replyId || !(await savedReplies.delete(actor.workspaceId, replyId))) throw notFound('saved reply');
    },
  };
}

export type SavedReplyService = ReturnType<typeof createSavedReplyService>;
