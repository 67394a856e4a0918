// Where attachment bytes live, by the SHA-256 of their content (identical files are kept once):
// a folder (by default under the data directory) or an S3-compatible bucket through the AWS SDK v3.
// The database holds the records (src/db/repositories/attachment.repository.ts); a file is
// written before its record commits and deleted once no record names it.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AttachmentStoreConfig } from '../config.js';
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER } from '../lib/owner-only.js';

export interface AttachmentStore {
  /** Stores the bytes (once: a hash already stored is left as it is); their hex SHA-256. */
  put(content: Buffer): Promise<string>;
  /** The bytes stored under the hash; null when there are none. */
  get(sha256: string): Promise<Buffer | null>;
  delete(sha256: string): Promise<void>;
  close(): void;
}

export const sha256Of = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

const HASH = /^[0-9a-f]{64}$/;
function checked(sha256: string): string {
  if (!HASH.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  return sha256;
}

/** `{dir}/ab/abcdef…`: two hex characters of fan-out keep directories small. */
function folderStore(dir: string): AttachmentStore {
  const pathOf = (sha256: string) => join(dir, checked(sha256).slice(0, 2), sha256);
  return {
    async put(content) {
      const sha256 = sha256Of(content);
      const path = pathOf(sha256);
      if (await stat(path).then(() => true, () => false)) return sha256;
      await mkdir(join(dir, sha256.slice(0, 2)), { recursive: true, mode: OWNER_ONLY_FOLDER });
      // Written aside and renamed: a reader never sees half a file, and concurrent writers of the same bytes both succeed.
      const partial = `${path}.${randomUUID()}.partial`;
      await writeFile(partial, content, { mode: OWNER_ONLY_FILE });
      await rename(partial, path);
      return sha256;
    },
    async get(sha256) {
      return readFile(pathOf(sha256)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
    },
    async delete(sha256) {
      await rm(pathOf(sha256), { force: true });
    },
    close() {},
  };
}

function s3Store(config: Extract<AttachmentStoreConfig, { kind: 's3' }>): AttachmentStore {
  // The SDK, the largest module the server can load, loads only when a bucket is configured.
  const s3 = import('@aws-sdk/client-s3').then((sdk) => ({
    sdk,
    client: new sdk.S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
    }),
  }));
  s3.catch(() => {}); // a failed load fails each call, not the process
  const keyOf = (sha256: string) => `attachments/${checked(sha256)}`;
  return {
    async put(content) {
      const sha256 = sha256Of(content);
      const { sdk, client } = await s3;
      await client.send(new sdk.PutObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256), Body: content }));
      return sha256;
    },
    async get(sha256) {
      const { sdk, client } = await s3;
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async delete(sha256) {
      const { sdk, client } = await s3;
      await client.send(new sdk.DeleteObjectCommand({ Bucket: config.bucket, Key: keyOf(sha256) }));
    },
    close() {
      void s3.then(({ client }) => client.destroy(), () => {});
    },
  };
}

export function createAttachmentStore(config: AttachmentStoreConfig): AttachmentStore {
  return config.kind === 'folder' ? folderStore(config.dir) : s3Store(config);
}
