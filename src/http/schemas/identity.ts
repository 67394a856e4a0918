import { Type } from '@sinclair/typebox';
import { MEMBER_ROLES } from '../../domain/accounts/actor.js';
import { Nullable, Ref, Timestamp, Uuid } from './common.js';

const Role = Type.Union(MEMBER_ROLES.map((role) => Type.Literal(role)));

const EXAMPLE_MEMBER = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093', user_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8090', role: 'owner',
  display_name: 'Grace Hopper', avatar_url: null,
};

const memberFields = {
  id: Uuid('Member id; use it as an issue\'s assignee_id'),
  user_id: Nullable(Uuid('User account id; null for members that exist only through a chat integration')),
  role: Role,
  display_name: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
};

export const Member = Type.Object(
  { ...memberFields, created_at: Timestamp() },
  {
    $id: 'Member', additionalProperties: false, description: 'A member of the workspace',
    examples: [{ ...EXAMPLE_MEMBER, created_at: '2026-11-21T10:25:00.000Z' }],
  },
);

export const KeyMember = Type.Object(memberFields, {
  $id: 'KeyMember', additionalProperties: false, description: 'The member an API key acts for', examples: [EXAMPLE_MEMBER],
});

export const Me = Type.Object(
  {
    workspace_id: Uuid(),
    api_key_id: Nullable(Uuid('The calling API key; [ext] null when the request came with a session (the team app)')),
    member: Nullable(Ref(KeyMember), {
      description: 'The member that created the key; null when there is none',
    }),
  },
  {
    $id: 'Me',
    additionalProperties: false,
    description: 'The identity of the calling API key (or [ext] session)',
    examples: [{
      workspace_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091',
      api_key_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8092',
      member: EXAMPLE_MEMBER,
    }],
  },
);
