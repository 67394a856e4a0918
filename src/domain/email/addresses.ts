// The addresses of mail: a product's inbound address `{inbound name}@{domain}` and a conversation's
// reply address `{inbound name}+{token}@{domain}`, whose token is unguessable (about 124 bits), so
// nobody can write into a conversation they were never part of by guessing its address.
import { randomInt } from 'node:crypto';

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN_LENGTH = 24;

/** A new reply token: lowercase, since mail systems may change the case of a local part. */
export function replyToken(): string {
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
