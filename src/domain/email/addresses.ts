// The addresses of mail: a product's inbound address `{inbound name}@{domain}`, a conversation's
// reply address `{inbound name}+{token}@{domain}`, and a reply's return path `bounces+{token}@{domain}`
// (the envelope sender its delivery reports go back to). Their tokens are unguessable (about 124
// bits), so nobody can write into a conversation they were never part of, or fail a reply they
// never received, by guessing an address. No inbound name is `bounces`: each ends in `-` and six
// characters (src/domain/products/product-naming.ts).
import { randomInt } from 'node:crypto';

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN_LENGTH = 24;
/** The local part of every return path, before its `+token`. */
export const RETURN_PATH_NAME = 'bounces';

/** A new address token: lowercase, since mail systems may change the case of a local part. */
export function addressToken(): string {
  let token = '';
  for (let i = 0; i < TOKEN_LENGTH; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

/** `name` and `token` of an address at `domain` (`name@domain`, `name+token@domain`); null for any other address. */
export function parseInboundAddress(address: string, domain: string): { name: string; token: string | null } | null {
  const at = address.lastIndexOf('@');
  if (at < 1 || domain === '' || address.slice(at + 1).toLowerCase() !== domain) return null;
  const local = address.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  return plus < 0 ? { name: local, token: null } : { name: local.slice(0, plus), token: local.slice(plus + 1) || null };
}

/** The address replies to a conversation go to: with its token, else the product's own. */
export const replyAddress = (inboundName: string, token: string | null, domain: string): string =>
  token ? `${inboundName}+${token}@${domain}` : `${inboundName}@${domain}`;

/** The envelope sender of one reply: its delivery reports come back to it, and only reports to it count. */
export const returnPathAddress = (token: string, domain: string): string => `${RETURN_PATH_NAME}+${token}@${domain}`;

/** The address of LOOPDESK_MAIL_FROM (`Name <address>` or a bare address), as written. */
export const mailFromAddress = (from: string): string => (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
