// [ext] Single sign-on (docs/sso.md): the settings of PUT/GET /api/v1/sso and what the sign-in page asks at GET /auth/sso.
import { Type } from '@sinclair/typebox';
import { ALLOWED_DOMAINS_MAX, SSO_ROLES } from '../../domain/sso/sso.service.js';
import { NOT_BLANK_NUL_FREE, StringEnum, Timestamp, Uuid } from './common.js';

const EXAMPLE = {
  issuer: 'https://auth.example.com/realms/support', client_id: 'loopdesk', allowed_domains: ['example.com'], default_role: 'agent', enforce: false,
};
const issuer = Type.String({
  minLength: 1, maxLength: 2000, 'x-trim': true,
  description: 'The provider\'s issuer identifier: https, or http on a loopback address. Its `/.well-known/openid-configuration` must name this issuer',
});
const clientId = Type.String({ minLength: 1, maxLength: 500, pattern: NOT_BLANK_NUL_FREE, description: 'The client id Loopdesk is registered as at the provider' });
const allowedDomains = Type.Array(Type.String({ minLength: 1, maxLength: 254 }), {
  maxItems: ALLOWED_DOMAINS_MAX,
  description: 'Email domains (`example.com`) whose people may sign in, and join with `default_role` when they are not members yet. ' +
    'Empty: only existing members sign in, whatever their domain; nobody joins',
});
const defaultRole = StringEnum(SSO_ROLES, { description: 'The role of people who join by signing in' });
const enforce = Type.Boolean({ description: 'Password sign-in off for everyone but owners (who keep it, for recovery)' });

export const PutSsoBody = Type.Object(
  {
    issuer,
    client_id: clientId,
    client_secret: Type.Optional(Type.String({
      minLength: 1, maxLength: 2000, pattern: NOT_BLANK_NUL_FREE, writeOnly: true,
      description: 'The client secret the provider issued; write-only. Required the first time; left out, the stored one is kept',
    })),
    allowed_domains: Type.Optional(allowedDomains),
    default_role: Type.Optional(StringEnum(SSO_ROLES, { description: 'The role of people who join by signing in; `agent` when left out' })),
    enforce: Type.Optional(Type.Boolean({ description: 'Password sign-in off for everyone but owners (who keep it, for recovery); false when left out' })),
  },
  { additionalProperties: false, examples: [{ ...EXAMPLE, client_secret: 'kc-3f9a…' }] },
);

export const SsoSettings = Type.Object(
  {
    issuer: Type.String(),
    client_id: Type.String(),
    allowed_domains: Type.Array(Type.String()),
    default_role: defaultRole,
    enforce,
    redirect_uri: Type.String({ description: 'Register this at the provider: `{public base URL}/auth/sso/callback`' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'SsoSettings', additionalProperties: false, description: '[ext] The workspace\'s single sign-on (never its client secret)',
    examples: [{ ...EXAMPLE, redirect_uri: 'https://support.example.com/auth/sso/callback', created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z' }],
  },
);

export const SsoAvailable = Type.Object(
  {
    workspace_id: Uuid(),
    start_url: Type.String({ description: 'Where "Sign in with SSO" leads: `/auth/sso/start?workspace_id=…`' }),
  },
  {
    $id: 'SsoAvailable', additionalProperties: false, description: '[ext] A workspace that signs in with single sign-on',
    examples: [{ workspace_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', start_url: '/auth/sso/start?workspace_id=0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091' }],
  },
);
