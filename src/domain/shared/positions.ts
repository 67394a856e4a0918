// The one place rule of the workspace's ordered resources (SLA policies, automation rules): places
// run 1…count without gaps; a new one goes to the end or to the place it asks for, a move shifts
// those in between, a deletion closes its gap. Every change runs under the resource's workspace
// lock, so two writers never shift the same places.
import type { Executor } from '../../db/repositories/executor.js';

/** What the positions need of a resource's repository. */
export interface PositionedRepository {
  count(workspaceId: string, tx: Executor): Promise<number>;
  /** Moves the rows at places `from`…`to` (inclusive) by `by`. */
  shift(workspaceId: string, range: { from: number; to: number }, by: 1 | -1, tx: Executor): Promise<void>;
}

/** A place within 1 … last; a number past the end means the end. */
export const placeWithin = (position: number, last: number) => Math.min(Math.max(position, 1), last);

export function orderedPositions(repository: PositionedRepository) {
  return {
    /** The place of a new row (at the end unless it asks for one), those from it on moved down one. */
    async makeRoom(workspaceId: string, asked: number | undefined, tx: Executor): Promise<number> {
      const count = await repository.count(workspaceId, tx);
      const position = placeWithin(asked ?? count + 1, count + 1);
      if (position <= count) await repository.shift(workspaceId, { from: position, to: count }, 1, tx);
      return position;
    },

    /** The place a row asks to move to, within the list (undefined: it stays). */
    async target(workspaceId: string, asked: number | undefined, tx: Executor): Promise<number | undefined> {
      return asked === undefined ? undefined : placeWithin(asked, await repository.count(workspaceId, tx));
    },

    /** Shifts the rows between a row's old place and its new one, making room there. */
    async move(workspaceId: string, from: number, to: number | undefined, tx: Executor): Promise<void> {
      if (to !== undefined && to < from) await repository.shift(workspaceId, { from: to, to: from - 1 }, 1, tx);
      if (to !== undefined && to > from) await repository.shift(workspaceId, { from: from + 1, to }, -1, tx);
    },

    /** After a row at `position` was deleted: those after it move up one (`countBefore`: the count before). */
    async closeGap(workspaceId: string, position: number, countBefore: number, tx: Executor): Promise<void> {
      if (position < countBefore) await repository.shift(workspaceId, { from: position + 1, to: countBefore }, -1, tx);
    },
  };
}
