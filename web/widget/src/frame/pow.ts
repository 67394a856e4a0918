// Proof of work for POST /sessions: the challenge solved in a Web Worker (typing never waits on it)
// and turned into the ALTCHA payload the server verifies: base64 of the solution's JSON.
import type { Challenge } from './types.js';

export class ProofOfWorkError extends Error {}

function solveInWorker(challenge: Challenge): Promise<{ number: number | null; took: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module', name: 'loopdesk-pow' });
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new ProofOfWorkError(event.message || 'the proof-of-work worker failed'));
    };
    worker.postMessage(challenge);
  });
}

export async function altchaPayload(challenge: Challenge): Promise<string> {
  const { number, took, error } = await solveInWorker(challenge);
  if (number === null) throw new ProofOfWorkError(error ?? 'no solution to the challenge');
  const { algorithm, salt, signature } = challenge;
  return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature, took }));
}
