import { Type } from '@sinclair/typebox';
import { AVAILABILITIES, MEMBER_ROLES } from '../../domain/accounts/actor.js';
import { SIGNATURE_MAX, TIME_ZONE_MAX, TIME_ZONE_PATTERN } from '../../domain/accounts/member-settings.js';
import { NUL_FREE, Nullable, Ref, StringEnum, Timestamp, Uuid } from './common.js';

const Role = Type.Union(MEMBER_ROLES.map((role) => Type.Literal(role)));
const Availability = StringEnum(AVAILABILITIES, {
  description: '[ext] `online` (default) or `away`: fair assignment gives new conversations to online members only; set with PATCH /me',
});

const EXAMPLE_MEMBER = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093', user_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8090', role: 'owner',
  display_name: 'Grace Hopper', avatar_url: null, availability: 'online',
};

const memberFields = {
  id: Uuid('Member id; use it as an issue\'s assignee_id'),
  user_id: Nullable(Uuid('User account id; null for members that exist only through a chat integration')),
  role: Role,
  display_name: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  availability: Availability,
};

export const Member = Type.Object(
  { ...memberFields, created_at: Timestamp() },
  {
    $id: 'Member', additionalProperties: false, description: 'A member of the workspace',
    examples: [{ ...EXAMPLE_MEMBER, created_at: '2026-11-21T10:25:00.000Z' }],
  },
);

const signature = Nullable(Type.String({ maxLength: SIGNATURE_MAX, pattern: NUL_FREE }), {
  description: '[ext] Multi-line text below the member\'s mailed replies (after the `-- ` separator). Kept with its line breaks; ' +
    'other control characters, spaces at the ends of lines, blank lines around it and a `--` line of its own at the top are dropped. ' +
    'null, or nothing left: no signature',
});
const timeZone = Nullable(Type.String({ maxLength: TIME_ZONE_MAX, pattern: TIME_ZONE_PATTERN }), {
  description: '[ext] The member\'s IANA time zone (e.g. `Europe/Berlin`), as written; null: UTC. A UTC offset is not a time zone',
});
const notifyEmail = Type.Boolean({ description: '[ext] Whether the member wants notifications by email' });
const EXAMPLE_SETTINGS = { signature: 'Grace Hopper\nSupport, Acme', time_zone: 'Europe/Berlin', notify_email: false };

export const KeyMember = Type.Object({ ...memberFields, signature, time_zone: timeZone, notify_email: notifyEmail }, {
  $id: 'KeyMember', additionalProperties: false, description: 'The member an API key acts for, with [ext] their own settings',
  examples: [{ ...EXAMPLE_MEMBER, ...EXAMPLE_SETTINGS }],
});

export const UpdateMeBody = Type.Object(
  { signature: Type.Optional(signature), time_zone: Type.Optional(timeZone), notify_email: Type.Optional(notifyEmail), availability: Type.Optional(Availability) },
  { additionalProperties: false, description: 'The settings to change; those left out keep their values', examples: [EXAMPLE_SETTINGS] },
);

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
      member: { ...EXAMPLE_MEMBER, ...EXAMPLE_SETTINGS },
    }],
  },
);
