// Idempotency records: the claim on a (credential, Idempotency-Key) pair and the response stored
// for its retries. A record is addressed by (workspace, credential, key); its created_at doubles as
// the claim's version, so a caller only ever removes the record it saw.
import type { Executor } from './executor.js';
import type { CredentialKind, IdempotencyRecordTable } from '../schema.js';

/** The credential a request came with: its keys are its own, no other credential sees them. */
export interface IdempotencyCredential {
  kind: CredentialKind;
  id: string;
}

export interface IdempotencyScope {
  workspaceId: string;
  credential: IdempotencyCredential;
  key: string;
}

export type IdempotencyRecord = Pick<IdempotencyRecordTable, 'request_hash' | 'response_status' | 'response_body' | 'created_at'>;

const columnsOf = (scope: IdempotencyScope) => ({
  workspace_id: scope.workspaceId,
  credential_kind: scope.credential.kind,
  credential_id: scope.credential.id,
  idempotency_key: scope.key,
});

export function idempotencyRepository(db: Executor) {
  return {
    /** Inserts an in-flight record; false when one already exists for the key. */
    async claim(scope: IdempotencyScope, requestHash: string, createdAt: string, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .insertInto('idempotency_records')
        .values({
          ...columnsOf(scope),
          request_hash: requestHash,
          response_status: null,
          response_body: null,
          created_at: createdAt,
        })
        .onConflict((oc) => oc.columns(['credential_kind', 'credential_id', 'idempotency_key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async find(scope: IdempotencyScope, tx: Executor = db): Promise<IdempotencyRecord | undefined> {
      return tx
        .selectFrom('idempotency_records')
        .select(['request_hash', 'response_status', 'response_body', 'created_at'])
        .where((eb) => eb.and(columnsOf(scope)))
        .executeTakeFirst();
    },

    async complete(scope: IdempotencyScope, createdAt: string, status: number, body: string, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('idempotency_records')
        .set({ response_status: status, response_body: body })
        .where((eb) => eb.and({ ...columnsOf(scope), created_at: createdAt }))
        .execute();
    },

    /** Deletes the record if it is still the one created at `createdAt`. */
    async remove(scope: IdempotencyScope, createdAt: string, tx: Executor = db): Promise<void> {
      await tx
        .deleteFrom('idempotency_records')
        .where((eb) => eb.and({ ...columnsOf(scope), created_at: createdAt }))
        .execute();
    },

    /** Housekeeping across all workspaces: drops every record created before `cutoff`. */
    async purgeCreatedBefore(cutoff: string, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('idempotency_records').where('created_at', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>;
