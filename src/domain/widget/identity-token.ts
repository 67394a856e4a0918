// The host site's identity tokens (docs/widget.md, "Identity"): a JWT signed with HS256 and the
// product's identity secret (the UTF-8 bytes of the whole `ids_…` string), with `sub` (its user
// id), `aud` (the widget key) and `exp` (at most 24 h ahead) required; `email` and `name` optional.
// Anything else — another algorithm (`none` included), another audience, an expired or too
// long-lived token, a missing claim, a malformed optional claim — is a 401.
import { errors, jwtVerify } from 'jose';
import { AppError } from '../../errors.js';
import { randomToken } from '../../lib/tokens.js';
import { contactName } from '../contacts/contact-name.js';

export const IDENTITY_TOKEN_MAX_LIFETIME_S = 24 * 3600;
/** Clocks of the host site and this server may disagree this much. */
const CLOCK_TOLERANCE_S = 60;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface VerifiedIdentity {
  sub: string;
  email: string | null;
  name: string | null;
}

/** `ids_` + 40 base62 characters. */
export const newIdentitySecret = (): string => randomToken('ids_', 40);

const refused = (why: string) => new AppError('unauthorized', `identity_token is not valid for this widget: ${why}`);

function optionalText(claims: Record<string, unknown>, name: string, max: number): string | null {
  const value = claims[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max || value.includes('\u0000')) throw refused(`its ${name} claim must be a string of at most ${max} characters`);
  return value.trim() || null;
}

function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `its ${error.claim} claim is missing or wrong`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'it must be signed with HS256';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not match the identity secret';
  return 'it is not a well-formed signed JWT';
}

export async function verifyIdentityToken(
  token: string,
  { secret, widgetKey, now }: { secret: string | null; widgetKey: string; now: string },
): Promise<VerifiedIdentity> {
  if (secret === null) throw refused('this product has no identity secret (POST /api/v1/products/{id}/identity-secret creates one)');
  const currentDate = new Date(now);
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'], audience: widgetKey, requiredClaims: ['sub', 'exp'], currentDate, clockTolerance: CLOCK_TOLERANCE_S,
    }));
  } catch (error) {
    throw refused(reason(error));
  }
  if ((claims.exp as number) > currentDate.getTime() / 1000 + IDENTITY_TOKEN_MAX_LIFETIME_S + CLOCK_TOLERANCE_S) {
    throw refused('its exp is more than 24 hours ahead');
  }
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub.trim() === '' || sub.length > 255) throw refused('its sub claim must be a non-empty string of at most 255 characters');
  const email = optionalText(claims, 'email', 320)?.toLowerCase() ?? null;
  if (email !== null && !EMAIL.test(email)) throw refused('its email claim is not an email address');
  return { sub, email, name: contactName(optionalText(claims, 'name', 200)) };
}
