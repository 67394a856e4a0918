// Solves an ALTCHA (v1) challenge off the main thread: the number n ≤ maxnumber whose hash of
// `salt + n` is `challenge`. WebCrypto's digest is asynchronous, so hashes are asked for in batches
// to keep its queue full instead of waiting on each one in turn.
import type { Challenge } from './types.js';

const BATCH = 256;

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function sameBytes(buffer: ArrayBuffer, expected: Uint8Array): boolean {
  const actual = new Uint8Array(buffer);
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

async function solve({ algorithm, challenge, salt, maxnumber }: Challenge): Promise<number | null> {
  const expected = hexToBytes(challenge.toLowerCase());
  const encoder = new TextEncoder();
  for (let start = 0; start <= maxnumber; start += BATCH) {
    const end = Math.min(start + BATCH, maxnumber + 1);
    const digests = [];
    for (let n = start; n < end; n++) digests.push(crypto.subtle.digest(algorithm, encoder.encode(salt + n)));
    const hashes = await Promise.all(digests);
    const found = hashes.findIndex((hash) => sameBytes(hash, expected));
    if (found >= 0) return start + found;
  }
  return null;
}

self.onmessage = async (event: MessageEvent<Challenge>) => {
  const started = Date.now();
  const number = await solve(event.data);
  self.postMessage({ number, took: Date.now() - started });
};
