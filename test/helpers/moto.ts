// A real S3-compatible server for the attachment store's tests: moto's server mode, the pinned
// version of test/fixtures/moto-requirements.txt, found at LOOPDESK_MOTO_SERVER or in the virtual
// environment .ci/run installs it into, started on a port the OS chooses (loopback only).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { AttachmentStoreConfig } from '../../src/config.js';
import { portOnceListening } from './ports.js';

const VENV = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loopdesk', 'moto-venv');
const CREDENTIALS = { accessKeyId: 'loopdesk-test', secretAccessKey: 'loopdesk-test-secret' };

/** The moto_server executable, or why it is missing (with how to install it). */
export function findMotoServer(): { path: string } | { problem: string } {
  const path = process.env.LOOPDESK_MOTO_SERVER || join(VENV, 'bin', 'moto_server');
  if (existsSync(path)) return { path };
  return {
    problem: `moto_server not found at ${path}; install it with \`bash .ci/run\`, or: python3 -m venv ${VENV} && ` +
      `${join(VENV, 'bin', 'pip')} install -r test/fixtures/moto-requirements.txt (LOOPDESK_MOTO_SERVER may point at another moto_server)`,
  };
}

export interface MotoServer {
  /** An S3 store configuration for a fresh bucket on this server. */
  store: Extract<AttachmentStoreConfig, { kind: 's3' }>;
  stop(): void;
}

export async function startMotoServer(path: string): Promise<MotoServer> {
  const child = spawn(path, ['-H', '127.0.0.1', '-p', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  child.on('exit', () => (exited = true));
  const port = await portOnceListening(child.pid!, { timeoutMs: 30_000, exited: () => exited });
  const store = { kind: 's3' as const, bucket: 'loopdesk-attachments', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: CREDENTIALS };
  const client = new S3Client({ region: store.region, endpoint: store.endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  await client.send(new CreateBucketCommand({ Bucket: store.bucket }));
  client.destroy();
  return { store, stop: () => child.kill('SIGTERM') };
}
