// Solves an ALTCHA (v1) challenge off the main thread: the number n ≤ maxnumber whose hash of
// `salt + n` is `challenge`. SHA-256 (what the server asks for) is computed in JavaScript: in
// Chromium it took 13 µs a hash against WebCrypto's 19 (whose every digest is a promise, even
// batched), and it also works outside a secure context, where there is no crypto.subtle. Other
// algorithms go to WebCrypto, in batches that keep its queue full.
import { sha256 } from './sha256.js';
import type { Challenge } from './types.js';

const BATCH = 256;

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

type Bytes = Uint8Array<ArrayBuffer>;

function hasher(algorithm: string): (inputs: Bytes[]) => Promise<Uint8Array[]> {
  if (algorithm.toUpperCase() === 'SHA-256') return async (inputs) => inputs.map(sha256);
  if (!globalThis.crypto?.subtle) throw new Error(`${algorithm} needs WebCrypto (a secure context)`);
  return async (inputs) => (await Promise.all(inputs.map((input) => crypto.subtle.digest(algorithm, input)))).map((hash) => new Uint8Array(hash));
}

async function solve({ algorithm, challenge, salt, maxnumber }: Challenge): Promise<number | null> {
  const expected = hexToBytes(challenge.toLowerCase());
  const encoder = new TextEncoder();
  const digest = hasher(algorithm);
  for (let start = 0; start <= maxnumber; start += BATCH) {
    const end = Math.min(start + BATCH, maxnumber + 1);
    const inputs: Bytes[] = [];
    for (let n = start; n < end; n++) inputs.push(encoder.encode(salt + n));
    const hashes = await digest(inputs);
    const found = hashes.findIndex((hash) => sameBytes(hash, expected));
    if (found >= 0) return start + found;
  }
  return null;
}

self.onmessage = async (event: MessageEvent<Challenge>) => {
  const started = Date.now();
  try {
    self.postMessage({ number: await solve(event.data), took: Date.now() - started });
  } catch (error) {
    self.postMessage({ number: null, took: Date.now() - started, error: (error as Error).message });
  }
};
