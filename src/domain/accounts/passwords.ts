// Password hashing with scrypt from node:crypto (docs/accounts.md). A hash is stored as
// `scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt, base64>$<key, base64>`: the parameters travel with each
// hash, so raising them later leaves existing hashes verifiable. Keys are compared in constant time.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** log2 of N, the CPU and memory cost. */
  ln: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt setting for 32 MiB per hash (N = 2^15, r = 8, p = 3), about 0.2–0.4 s of one
 * core here: slow for guessing, bounded in memory when many people sign in at once.
 */
export const DEFAULT_SCRYPT: ScryptParams = Object.freeze({ ln: 15, r: 8, p: 3 });

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const FORMAT = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function derive(password: string, salt: Buffer, { ln, r, p }: ScryptParams, length: number): Promise<Buffer> {
  const N = 2 ** ln;
  // Node refuses a computation over maxmem (32 MiB by default); allow what these parameters need.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    // NFC: the same password typed on another keyboard or OS yields the same bytes.
    scryptCallback(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a stored value that is not a hash of this form. */
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * Spends the time of a verification without a hash to check, so that an unknown email answers
   * as slowly as a wrong password.
   */
  verifyNothing(password: string): Promise<void>;
}

export function createPasswordHasher(params: ScryptParams = DEFAULT_SCRYPT): PasswordHasher {
  async function hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, params, KEY_BYTES);
    return `scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }
  let dummy: Promise<string> | null = null;

  async function verify(password: string, stored: string): Promise<boolean> {
    const match = FORMAT.exec(stored);
    if (!match) return false;
    const [, ln, r, p, salt, key] = match;
    const expected = Buffer.from(key, 'base64');
    const actual = await derive(password, Buffer.from(salt, 'base64'), { ln: Number(ln), r: Number(r), p: Number(p) }, expected.length);
    return timingSafeEqual(actual, expected);
  }

  return {
    hash,
    verify,
    async verifyNothing(password) {
      dummy ??= hash('not anyone\'s password');
      await verify(password, await dummy);
    },
  };
}
