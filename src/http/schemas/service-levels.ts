// Calendars (business hours) and SLA policies (docs/service-levels.md).
import { Type, type TSchema } from '@sinclair/typebox';
import { TIME_ZONE_MAX, TIME_ZONE_PATTERN } from '../../domain/accounts/member-settings.js';
import { DUE_HORIZON_YEARS, SECONDS_MAX } from '../../domain/service-levels/business-time.js';
import { DATE_PATTERN, END_TIME_PATTERN, HOLIDAYS_MAX, INTERVALS_PER_DAY_MAX, START_TIME_PATTERN } from '../../domain/service-levels/calendar-rules.js';
import { CONDITION_ITEMS_MAX, SLA_POLICY_NAME_MAX } from '../../domain/service-levels/sla-policy.service.js';
import { CONVERSATION_SOURCES, CONVERSATION_TYPES, PRIORITIES } from '../../domain/shared/enums.js';
import { Nullable, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { TagsInput } from './tag.js';

export const CALENDAR_NAME_MAX = 200;

const EXAMPLE_HOURS = {
  mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '12:30'], ['13:30', '17:00']],
};
const EXAMPLE_CALENDAR = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e1', name: 'Berlin office', timezone: 'Europe/Berlin', hours: EXAMPLE_HOURS,
  holidays: ['2026-12-24', '2026-12-25', '2026-12-26'], created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};

// The service checks these strings itself (`x-route-parsed`), so that its error names the day and the time.
const Interval = Type.Array(Type.String({ maxLength: 5, pattern: END_TIME_PATTERN, 'x-route-parsed': true }), {
  minItems: 2, maxItems: 2,
  description: `[start, end], local \`HH:MM\`: start ${START_TIME_PATTERN}, end ${END_TIME_PATTERN} (24:00 is the day's end); start before end`,
  examples: [['09:00', '17:00']],
});
const Day = Type.Array(Interval, { maxItems: INTERVALS_PER_DAY_MAX, description: `At most ${INTERVALS_PER_DAY_MAX} open intervals, not overlapping (they may touch); [] or left out: closed` });

/** The same schema for each weekday, mon … sun, each optional. */
const perWeekday = <T extends TSchema>(day: T) => {
  const optional = Type.Optional(day);
  return { mon: optional, tue: optional, wed: optional, thu: optional, fri: optional, sat: optional, sun: optional };
};

const Hours = Type.Object(perWeekday(Day), {
  additionalProperties: false,
  description: 'Open intervals per weekday (mon … sun), local wall-clock time; a day left out is closed. An error names the day (`hours.mon`)',
});
const Holidays = Type.Array(Type.String({ maxLength: 10, pattern: DATE_PATTERN, 'x-route-parsed': true }), {
  maxItems: HOLIDAYS_MAX,
  description: `Local dates (YYYY-MM-DD) closed all day: at most ${HOLIDAYS_MAX}, each a real date, each once; kept in date order`,
});
const TimeZone = Type.String({
  maxLength: TIME_ZONE_MAX, pattern: TIME_ZONE_PATTERN, 'x-route-parsed': true,
  description: 'An IANA time zone name (`Europe/Berlin`, `America/New_York`, `UTC`); the hours and holidays are in it. A UTC offset is not a zone',
});
const CalendarName = TrimmedString({ minLength: 1, maxLength: CALENDAR_NAME_MAX, description: `1–${CALENDAR_NAME_MAX} characters after trimming` });

export const Calendar = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    timezone: Type.String({ description: 'The IANA time zone the hours and holidays are in' }),
    hours: Type.Object(perWeekday(Type.Array(Type.Array(Type.String()))), {
      additionalProperties: false, description: 'Open intervals per weekday, each sorted by start; closed days left out',
    }),
    holidays: Type.Array(Type.String(), { description: 'Local dates closed all day, in date order' }),
    created_at: Timestamp(),
    updated_at: Timestamp('Changes on every effective change'),
  },
  { $id: 'Calendar', additionalProperties: false, description: '[ext] Business hours in a time zone, with holidays', examples: [EXAMPLE_CALENDAR] },
);

export const CreateCalendarBody = Type.Object(
  { name: CalendarName, timezone: TimeZone, hours: Hours, holidays: Type.Optional(Holidays) },
  { additionalProperties: false, examples: [{ name: EXAMPLE_CALENDAR.name, timezone: EXAMPLE_CALENDAR.timezone, hours: EXAMPLE_HOURS, holidays: EXAMPLE_CALENDAR.holidays }] },
);

export const UpdateCalendarBody = Type.Object(
  { name: Type.Optional(CalendarName), timezone: Type.Optional(TimeZone), hours: Type.Optional(Hours), holidays: Type.Optional(Holidays) },
  { additionalProperties: false, examples: [{ holidays: ['2027-01-01'] }] },
);

export const DueQuery = Type.Object(
  {
    from: Type.Optional(Timestamp('When the clock starts, an RFC 3339 instant with its offset; default: now')),
    seconds: Type.Integer({ minimum: 0, maximum: SECONDS_MAX, description: `Open time to pass, in seconds: 0 to ${SECONDS_MAX} (365 days)` }),
  },
);

export const CalendarDue = Type.Object(
  { due_at: Timestamp(`When \`seconds\` of open time have passed since \`from\` (\`from\` itself for 0); the earliest such instant, so it may be a closing time`) },
  {
    $id: 'CalendarDue', additionalProperties: false, examples: [{ due_at: '2026-11-23T09:30:00.000Z' }],
    description: `[ext] A due time in a calendar's business hours (found up to ${DUE_HORIZON_YEARS} years ahead)`,
  },
);

const EXAMPLE_POLICY = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80f1', name: 'Urgent tickets', position: 1, active: true,
  conditions: { priorities: ['urgent', 'high'], types: ['ticket'] },
  first_response_seconds: 3600, next_response_seconds: 14400, resolution_seconds: 86400, calendar_id: EXAMPLE_CALENDAR.id,
  created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};

const conditionList = <T extends TSchema>(item: T, what: string) =>
  Type.Optional(Type.Array(item, { maxItems: CONDITION_ITEMS_MAX, description: `${what}; at most ${CONDITION_ITEMS_MAX}, [] or left out: any` }));

const ConditionsInput = Type.Object(
  {
    product_ids: conditionList(Uuid(), 'Products of this workspace the conversation belongs to one of'),
    priorities: conditionList(StringEnum(PRIORITIES), 'Priorities it has one of'),
    types: conditionList(StringEnum(CONVERSATION_TYPES), 'Types it has one of'),
    sources: conditionList(StringEnum(CONVERSATION_SOURCES), 'Sources it came from one of'),
    tags: Type.Optional(TagsInput('Tags it carries any of (compared without case)')),
  },
  {
    additionalProperties: false,
    description: 'A conversation matches when it matches every list given (`{}` matches all); replaced as a whole. Duplicates dropped, order kept',
  },
);

const Target = (clock: string) => Nullable(Type.Integer({ minimum: 1, maximum: SECONDS_MAX }), {
  description: `Seconds, 1 to ${SECONDS_MAX}, the ${clock} may take (in the calendar's open time); null: no such target. A policy has at least one`,
});
const PolicyName = TrimmedString({ minLength: 1, maxLength: SLA_POLICY_NAME_MAX, description: `1–${SLA_POLICY_NAME_MAX} characters after trimming` });
const Position = Type.Integer({
  minimum: 1, maximum: 1_000_000,
  description: 'Where the policy is tried, 1 first: the others move to make room (a number past the end means the end). Default on create: the end',
});

const policyInputs = {
  name: PolicyName,
  position: Type.Optional(Position),
  active: Type.Optional(Type.Boolean({ description: 'Inactive policies are never applied; default true' })),
  conditions: Type.Optional(ConditionsInput),
  first_response_seconds: Type.Optional(Target('first response')),
  next_response_seconds: Type.Optional(Target('next response')),
  resolution_seconds: Type.Optional(Target('resolution')),
  calendar_id: Type.Optional(Nullable(Uuid(), { description: 'A calendar of this workspace the targets are measured in; null: round the clock' })),
};

export const SlaPolicy = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    position: Type.Integer({ description: '1 … the number of policies: the order they are tried in' }),
    active: Type.Boolean(),
    conditions: Type.Object(
      {
        product_ids: Type.Optional(Type.Array(Uuid())),
        priorities: Type.Optional(Type.Array(StringEnum(PRIORITIES))),
        types: Type.Optional(Type.Array(StringEnum(CONVERSATION_TYPES))),
        sources: Type.Optional(Type.Array(StringEnum(CONVERSATION_SOURCES))),
        tags: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: false, description: 'The lists given (none empty); a conversation matches when it matches each, `tags` meaning any of them' },
    ),
    first_response_seconds: Nullable(Type.Integer()),
    next_response_seconds: Nullable(Type.Integer()),
    resolution_seconds: Nullable(Type.Integer()),
    calendar_id: Nullable(Uuid('The calendar the targets are measured in; null: round the clock')),
    created_at: Timestamp(),
    updated_at: Timestamp('Changes on every effective change (not when another policy\'s move shifts it)'),
  },
  {
    $id: 'SlaPolicy', additionalProperties: false, examples: [EXAMPLE_POLICY],
    description: '[ext] An SLA policy: the first active one by position whose conditions match a conversation applies to it',
  },
);

export const CreateSlaPolicyBody = Type.Object(policyInputs, {
  additionalProperties: false,
  anyOf: [{ required: ['first_response_seconds'] }, { required: ['next_response_seconds'] }, { required: ['resolution_seconds'] }],
  description: 'At least one target that is not null',
  examples: [{ name: EXAMPLE_POLICY.name, conditions: EXAMPLE_POLICY.conditions, first_response_seconds: 3600, resolution_seconds: 86400, calendar_id: EXAMPLE_CALENDAR.id }],
});

export const UpdateSlaPolicyBody = Type.Object({ ...policyInputs, name: Type.Optional(PolicyName) }, {
  additionalProperties: false, examples: [{ position: 1 }, { active: false }],
});
