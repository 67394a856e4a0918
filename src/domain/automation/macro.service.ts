// Macros (docs/automation.md): a team's saved lists of actions (the rules' vocabulary) that an
// agent runs on a conversation in one transaction. Any member writes them (read-only keys stay
// GET-only); running one goes through the conversation write unit like every other write, and its
// events name who ran it as their actor.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { MacroChanges, MacroRepository, MacroRow } from '../../db/repositories/automation/macro.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { EventActor } from '../../events/event-types.js';
import { actingId, type Actor } from '../accounts/actor.js';
import type { ConversationDetail } from '../conversations/conversation.shapes.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import { updateUnderLock } from '../shared/changes.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { ActionRunner } from './actions.js';
import type { Assignment } from '../assignment/assignment.js';
import { assignsInTurn, type Action, type AutomationChecks } from './automation-vocabulary.js';

export const MACRO_NAME_MAX = 200;

export interface Macro {
  id: string;
  name: string;
  actions: Action[];
  created_at: string;
  updated_at: string;
}

export interface MacroInput {
  name: string;
  actions: unknown[];
}

const toMacro = (row: MacroRow): Macro => ({
  id: row.id, name: row.name, actions: JSON.parse(row.actions) as Action[], created_at: row.created_at, updated_at: row.updated_at,
});

/** Who a macro's events name: the member, or the API key that has none. */
const eventActorOf = (actor: Actor): EventActor => (actor.member ? { type: 'member', id: actor.member.id } : { type: 'api_key', id: actor.credentialId });

export interface MacroServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  macros: MacroRepository;
  conversations: Pick<ConversationRepository, 'findById'>;
  writes: Pick<ConversationWrites, 'lock' | 'detail'>;
  assignment: Pick<Assignment, 'holdFor'>;
  checks: AutomationChecks;
  actions: ActionRunner;
  clock: Clock;
}

export function createMacroService({ db, dialect, macros, conversations, writes, assignment, checks, actions, clock }: MacroServiceDeps) {
  async function find(actor: Actor, id: string, tx = db): Promise<MacroRow> {
    const macroId = parseUuid(id);
    const row = macroId ? await macros.findById(actor.workspaceId, macroId, tx) : undefined;
    if (!row) throw notFound('macro');
    return row;
  }

  async function findConversation(actor: Actor, id: string, tx = db) {
    const conversationId = parseUuid(id);
    const row = conversationId ? await conversations.findById(actor.workspaceId, conversationId, tx) : undefined;
    if (!row) throw notFound('conversation');
    return row;
  }

  return {
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    get: async (actor: Actor, id: string): Promise<Macro> => toMacro(await find(actor, id)),

    async list(actor: Actor, page: Page): Promise<PageOf<Macro>> {
      const { rows, total } = await macros.list(actor.workspaceId, page);
      return { rows: rows.map(toMacro), total };
    },

    async create(actor: Actor, input: MacroInput): Promise<Macro> {
      const checked = await checks.actions(actor.workspaceId, input.actions);
      const now = clock.now();
      const row: MacroRow = { id: newId(), workspace_id: actor.workspaceId, name: input.name, actions: JSON.stringify(checked), created_at: now, updated_at: now };
      await macros.insert(row);
      return toMacro(row);
    },

    /** Only the fields given (`actions` replaced whole); updated_at moves only when something changes. */
    async update(actor: Actor, id: string, input: Partial<MacroInput>): Promise<Macro> {
      const { id: macroId } = await find(actor, id);
      const checked = input.actions === undefined ? undefined : JSON.stringify(await checks.actions(actor.workspaceId, input.actions));
      const { current, changes } = await updateUnderLock<MacroRow, MacroChanges>({ db, dialect, clock }, {
        lockKey: `macro:${macroId}`,
        read: (tx) => find(actor, macroId, tx),
        wanted: { name: input.name, actions: checked },
        write: (work, _current, changes) => macros.update(actor.workspaceId, macroId, changes, work.tx),
      });
      return toMacro({ ...current, ...changes });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const macroId = parseUuid(id);
      if (!macroId || !(await macros.delete(actor.workspaceId, macroId))) throw notFound('macro');
    },

    /** Runs the macro's actions on the conversation in one transaction; the conversation after them all. */
    async run(actor: Actor, conversationId: string, macroId: string): Promise<ConversationDetail> {
      // One after the other: with both unknown, the answer is always the conversation's 404 (the path's first id).
      const { id, product_id } = await findConversation(actor, conversationId);
      const macro = await find(actor, macroId);
      const performer = { workspaceId: actor.workspaceId, id: actingId(actor), name: actor.member?.display_name ?? null, memberId: actor.member?.id ?? null };
      return inTransaction(db, async (work) => {
        const { actions: macroActions } = toMacro(macro);
        await assignment.holdFor(work, product_id, assignsInTurn(macroActions));
        await writes.lock(work, id);
        await actions.run(work, await findConversation(actor, id, work.tx), macroActions, performer);
        return writes.detail(work.tx, await findConversation(actor, id, work.tx));
      }, { actor: eventActorOf(actor) });
    },
  };
}

export type MacroService = ReturnType<typeof createMacroService>;
