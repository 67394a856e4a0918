// People and sessions (docs/accounts.md): the /auth bodies and answers, and the [ext] settings
// resources of /api/v1 (invitations, API keys, a member's role).
import { Type } from '@sinclair/typebox';
import { MEMBER_ROLES } from '../../domain/accounts/actor.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/accounts/passwords.js';
import { Nullable, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { Member } from './identity.js';

const Role = StringEnum(MEMBER_ROLES);
/** Trimmed (a pasted address often carries spaces) and compared lowercased. */
const Email = (description: string) =>
  Type.String({ format: 'email', maxLength: 254, 'x-trim': true, description: `${description}; trimmed`, examples: ['grace@example.com'] });
const NewPassword = (description: string) =>
  Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `${description}; ${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters` });
/** A password to check: any length a password may have (a sign-in never says which rule one breaks). */
const GivenPassword = (description: string) => Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, description });

const EXAMPLE_MEMBER = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093', user_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8090', role: 'owner',
  display_name: 'Grace Hopper', avatar_url: null, availability: 'online', created_at: '2026-11-21T10:25:00.000Z',
};
const EXAMPLE_TOKEN = 'ldi_4Yq2dJ0sXbN8rT1kLmP3vW7zC9aE5fG6hH2jK8nQ';

export const SignInBody = Type.Object(
  {
    email: Email('The account\'s email (compared without regard to case)'),
    password: GivenPassword('The account\'s password'),
    workspace_id: Type.Optional(Uuid('The workspace to sign in to; omitted: the oldest membership of the account')),
  },
  { additionalProperties: false, examples: [{ email: 'grace@example.com', password: 'correct horse battery' }] },
);

export const SignedIn = Type.Object(
  { workspace_id: Uuid(), member: Ref(Member, { description: 'The member the session acts as' }) },
  {
    $id: 'SignedIn', additionalProperties: false, description: 'A new session: its workspace and member (the session itself is the cookie)',
    examples: [{ workspace_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', member: EXAMPLE_MEMBER }],
  },
);

export const InvitationPreview = Type.Object(
  {
    email: Nullable(Type.String({ description: 'Who is invited; null for the first start\'s owner link, whose taker gives an email' })),
    workspace_name: Type.String(),
    role: Role,
  },
  {
    $id: 'InvitationPreview', additionalProperties: false, description: 'What an invitation page shows',
    examples: [{ email: 'grace@example.com', workspace_name: 'Acme', role: 'agent' }],
  },
);

export const AcceptInvitationBody = Type.Object(
  {
    name: TrimmedString({ minLength: 1, maxLength: 100, description: 'The display name, 1–100 characters, trimmed' }),
    password: NewPassword('The new password; when the email already has an account, that account\'s password'),
    email: Type.Optional(Email('Required when the invitation names no email (the first start\'s owner link); otherwise the invitation\'s own, if given')),
  },
  { additionalProperties: false, examples: [{ name: 'Grace Hopper', password: 'correct horse battery' }] },
);

export const ChangePasswordBody = Type.Object(
  { current_password: GivenPassword('The password now'), new_password: NewPassword('The password from now on') },
  { additionalProperties: false, examples: [{ current_password: 'correct horse battery', new_password: 'staple battery horse correct' }] },
);

export const TokenParams = Type.Object(
  { token: Type.String({ description: 'The invitation\'s token: the last part of its link', examples: [EXAMPLE_TOKEN] }) },
  { additionalProperties: false },
);

const invitationFields = { id: Uuid(), email: Nullable(Type.String()), role: Role, expires_at: Timestamp('7 days after its creation') };

export const IssuedInvitation = Type.Object(
  { ...invitationFields, url: Type.String({ description: 'The one-time link `{base}/app/invite/{token}`, shown only here' }) },
  {
    $id: 'IssuedInvitation', additionalProperties: false, description: 'A new invitation with its link',
    examples: [{
      id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80a7', email: 'grace@example.com', role: 'agent',
      url: `https://support.example.com/app/invite/${EXAMPLE_TOKEN}`, expires_at: '2026-11-28T10:25:00.000Z',
    }],
  },
);

export const Invitation = Type.Object(
  { ...invitationFields, invited_by: Nullable(Uuid('The inviting member; null when none (the admin CLI, an integration key)')), created_at: Timestamp() },
  {
    $id: 'Invitation', additionalProperties: false, description: 'A pending invitation (never its link)',
    examples: [{
      id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80a7', email: 'grace@example.com', role: 'agent', invited_by: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093',
      created_at: '2026-11-21T10:25:00.000Z', expires_at: '2026-11-28T10:25:00.000Z',
    }],
  },
);

export const CreateInvitationBody = Type.Object(
  { email: Email('Who to invite'), role: Role },
  { additionalProperties: false, examples: [{ email: 'grace@example.com', role: 'agent' }] },
);

export const UpdateMemberBody = Type.Object({ role: Role }, { additionalProperties: false, examples: [{ role: 'admin' }] });

const apiKeyFields = {
  id: Uuid(),
  label: Nullable(Type.String()),
  read_only: Type.Boolean({ description: 'The key may only use GET' }),
  member_id: Nullable(Uuid('The member the key acts as; null: an integration key')),
  created_at: Timestamp(),
};
const EXAMPLE_KEY = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b2', label: 'CI', read_only: false, member_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093',
  created_at: '2026-11-21T10:25:00.000Z',
};

export const ApiKey = Type.Object(
  { ...apiKeyFields, last_used_at: Nullable(Timestamp('Refreshed at most once a minute; null until first used')) },
  { $id: 'ApiKey', additionalProperties: false, description: 'An API key that works (never the key itself)', examples: [{ ...EXAMPLE_KEY, last_used_at: null }] },
);

export const CreatedApiKey = Type.Object(
  { ...apiKeyFields, key: Type.String({ description: '`ldk_` + 40 base62 characters, shown only here (only its hash is stored)' }) },
  {
    $id: 'CreatedApiKey', additionalProperties: false, description: 'A new API key, with the key itself',
    examples: [{ ...EXAMPLE_KEY, key: 'ldk_0123456789abcdefghijABCDEFGHIJ0123456789' }],
  },
);

export const CreateApiKeyBody = Type.Object(
  {
    label: Type.Optional(Nullable(Type.String({ maxLength: 200 }), { description: 'A note to recognize the key by, max 200 characters' })),
    read_only: Type.Optional(Type.Boolean({ default: false, description: 'The key may only use GET' })),
    member_id: Type.Optional(Nullable(Uuid(), {
      description: 'The member the key acts as; omitted: the caller\'s own member; null: no member (an integration key, which holds settings power)',
    })),
  },
  { additionalProperties: false, examples: [{ label: 'CI', read_only: true }] },
);
