import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `prefix` followed by `length` base62 characters from a cryptographic RNG. */
export function randomToken(prefix: string, length: number): string {
  let token = prefix;
  for (let i = 0; i < length; i++) token += BASE62[randomInt(62)];
  return token;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
