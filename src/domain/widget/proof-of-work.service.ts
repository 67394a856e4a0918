// Proof of work for the widget's anonymous writes (docs/widget.md, "Abuse"), in the ALTCHA format
// (altcha-lib's v1 API: `{ algorithm, challenge, salt, signature, maxnumber }`, solved as a
// base64 JSON payload). Challenges are signed with a key derived per product from a server secret
// kept in the database, so a solution is good for one product only, in any process; each is
// accepted once (used_challenges) and expires after CHALLENGE_TTL_MS.
import { createHmac, randomBytes } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Payload } from 'altcha-lib/v1/types';
import type { ServerSecretRepository } from '../../db/repositories/server-secret.repository.js';
import type { UsedChallengeRepository } from '../../db/repositories/used-challenge.repository.js';
import { invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';

/** How long a challenge may be worked on and its solution sent. */
export const CHALLENGE_TTL_MS = 20 * 60_000;
/** The largest number a challenge hides: about a second of work for a browser on average. */
export const DEFAULT_MAX_NUMBER = 100_000;
const ALGORITHM = 'SHA-256';

/** A challenge as GET /challenge shows it (the ALTCHA format). */
export interface AltchaChallenge {
  algorithm: typeof ALGORITHM;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber: number;
}
const SECRET_NAME = 'altcha_hmac_key';

export interface ProofOfWorkDeps {
  secrets: ServerSecretRepository;
  usedChallenges: UsedChallengeRepository;
  clock: Clock;
  /** DEFAULT_MAX_NUMBER unless given (tests make challenges cheap). */
  maxNumber?: number;
}

/** The solution a client sent, or null when it is not the base64 JSON of one. */
function decodePayload(text: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Partial<Payload> | null;
    if (typeof value !== 'object' || value === null) return null;
    const { algorithm, challenge, number, salt, signature } = value;
    if (algorithm !== ALGORITHM || !Number.isSafeInteger(number)) return null;
    if (![challenge, salt, signature].every((part) => typeof part === 'string' && part.length > 0 && part.length <= 512)) return null;
    return value as Payload;
  } catch {
    return null;
  }
}

export function createProofOfWork({ secrets, usedChallenges, clock, maxNumber = DEFAULT_MAX_NUMBER }: ProofOfWorkDeps) {
  let serverSecret: Promise<string> | null = null;
  const secret = () => {
    serverSecret ??= secrets.getOrCreate(SECRET_NAME, randomBytes(32).toString('base64url'), clock.now()).catch((error) => {
      serverSecret = null;
      throw error;
    });
    return serverSecret;
  };
  const hmacKeyFor = async (productId: string) => createHmac('sha256', await secret()).update(`altcha:${productId}`).digest('hex');

  return {
    async challenge(productId: string): Promise<AltchaChallenge> {
      const expires = new Date(Date.parse(clock.now()) + CHALLENGE_TTL_MS);
      const { challenge, salt, signature } = await createChallenge({ algorithm: ALGORITHM, hmacKey: await hmacKeyFor(productId), maxnumber: maxNumber, expires });
      return { algorithm: ALGORITHM, challenge, salt, signature, maxnumber: maxNumber };
    },

    /** Accepts a solved challenge of this product once; anything else is a 400 on `altcha`. */
    async verifyOnce(productId: string, solution: string | undefined): Promise<void> {
      if (solution === undefined) throw invalidField('altcha', 'is required: solve GET /challenge and send the base64 payload');
      const payload = decodePayload(solution);
      const expiresAt = Number(payload ? extractParams(payload).expires : NaN) * 1000;
      const now = Date.parse(clock.now());
      if (!payload || !Number.isFinite(expiresAt)) throw invalidField('altcha', 'is not a solved challenge of this widget');
      if (expiresAt < now) throw invalidField('altcha', 'has expired: solve a new challenge');
      if (!(await verifySolution(payload, await hmacKeyFor(productId), false))) {
        throw invalidField('altcha', 'is not a solved challenge of this widget');
      }
      await usedChallenges.deleteExpired(new Date(now).toISOString());
      if (!(await usedChallenges.claim(payload.signature, new Date(expiresAt).toISOString()))) {
        throw invalidField('altcha', 'has already been used: solve a new challenge');
      }
    },
  };
}

export type ProofOfWork = ReturnType<typeof createProofOfWork>;
