// ALTCHA solutions already accepted, by their challenge's signature, kept until the challenge
// expires (after which the solution is refused as expired anyway).
import type { Executor } from './executor.js';

export function usedChallengeRepository(db: Executor) {
  return {
    /**
     * Records the signature as used; false when it already was. One statement, so two requests
     * racing with the same solution cannot both be first, in one process or several.
     */
    async claim(signature: string, expiresAt: string, tx: Executor = db): Promise<boolean> {
      const inserted = await tx
        .insertInto('used_challenges')
        .values({ signature, expires_at: expiresAt })
        .onConflict((c) => c.column('signature').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async deleteExpired(now: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('used_challenges').where('expires_at', '<', now).execute();
    },
  };
}

export type UsedChallengeRepository = ReturnType<typeof usedChallengeRepository>;
