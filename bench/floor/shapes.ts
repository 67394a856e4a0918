// The JSON the floor writes, built by hand from rows: each shape is its fields in the order the API
// serializes them, each with how its column becomes JSON text. The same lists give the floor's
// select lists, so a field the API gains (a column of its own) is one line here: its name and its
// encoder, in its place. Fields that are not plain columns (nested lists, counts) are added by
// the reads and writes around the shape's text.
import type { Row } from './store.js';

type Encode = (value: unknown) => string;

const text: Encode = (value) => JSON.stringify(value);
const nullable = (encode: Encode): Encode => (value) => (value === null ? 'null' : encode(value));
const number: Encode = (value) => String(value);
const flag: Encode = (value) => (value === 1 ? 'true' : 'false');
/** JSON stored as text, written as it is stored (compact, as JSON.stringify wrote it). */
const storedJson: Encode = (value) => (value === null ? 'null' : (value as string));

export interface Shape {
  /** The columns to select, `alias.` prefixed. */
  columns(alias: string): string;
  /** `"field":value,…` without braces, so callers can add fields around it. */
  fields(row: Row): string;
}

function shape(fields: [name: string, encode: Encode][]): Shape {
  const keys = fields.map(([name], i) => `${i ? ',' : ''}"${name}":`);
  return {
    columns: (alias) => fields.map(([name]) => `${alias}.${name}`).join(', '),
    fields(row) {
      let out = '';
      for (let i = 0; i < fields.length; i++) out += keys[i] + fields[i]![1](row[fields[i]![0]]);
      return out;
    },
  };
}

export const object = (shape: Shape, row: Row): string => `{${shape.fields(row)}}`;
export const array = (shape: Shape, rows: readonly Row[]): string => `[${rows.map((row) => object(shape, row)).join(',')}]`;
export const json = { text, nullable, number, flag, storedJson };

/** An issue's own columns, in the order both the detail and the list item start with. */
export const ISSUE = shape([
  ['id', text], ['product_id', text], ['shortcode', text], ['title', text], ['description', nullable(text)],
  ['status', text], ['priority', text], ['assignee_id', nullable(text)], ['resolution_comment', nullable(text)],
  ['is_ai_generated', flag], ['tags', storedJson], ['created_at', text], ['updated_at', text],
]);

/** A conversation as an issue's detail lists it. */
export const CONVERSATION_SUMMARY = shape([
  ['id', text], ['title', text], ['type', text], ['status', text], ['priority', text], ['ai_summary', nullable(text)], ['created_at', text],
]);

/** A conversation's own columns; its contact follows (read through a join). */
export const CONVERSATION = shape([
  ['id', text], ['product_id', text], ['contact_id', nullable(text)], ['type', text], ['source', text], ['channel', text], ['status', text],
  ['priority', text], ['title', text], ['ai_summary', nullable(text)], ['rating', nullable(number)], ['upvotes', number],
  ['form_fields', storedJson], ['tags', storedJson], ['created_at', text], ['updated_at', text],
]);

/** A message's own columns; its delivery and attachments follow (messageJson). */
export const MESSAGE = shape([
  ['id', text], ['sender_type', text], ['sender_id', text], ['body', text], ['sender_name', nullable(text)], ['created_at', text],
  ['internal', flag], ['full_body', nullable(text)],
]);

/** The conversation's list fields, written after its contact. */
export const CONVERSATION_INBOX_COLUMNS = [
  'assignee_id', 'last_message_sender_type', 'last_message_excerpt', 'last_message_at', 'waiting_since', 'snoozed_until',
  'sla_policy_id', 'sla_first_response_due_at', 'sla_next_response_due_at', 'sla_resolution_due_at', 'sla_breaches', 'sla_status', 'sla_due_at',
];

export const ATTACHMENT = shape([['id', text], ['filename', text], ['content_type', text], ['size', number]]);

/** The API's names of the email_jobs statuses. */
const DELIVERY: Record<string, string> = { pending: 'pending', done: 'sent', failed: 'failed' };

/** A message with its delivery (`delivery_status`, `delivery_error` columns, null when not mailed) and its attachments' JSON. */
export const messageJson = (row: Row, attachments = '[]'): string => {
  const delivery = row.delivery_status == null
    ? 'null'
    : `{"status":"${DELIVERY[row.delivery_status as string]}","error":${nullable(text)(row.delivery_error ?? null)}}`;
  return `{${MESSAGE.fields(row)},"delivery":${delivery},"attachments":${attachments}}`;
};

/** A contact as its profile shows it: `verified` when the host site vouched for it (an external_id), its conversations counted. */
export const contactProfileJson = (row: Row): string =>
  `{"id":"${row.id}","name":${nullable(text)(row.name)},"email":${nullable(text)(row.email)},"verified":${row.external_id !== null},` +
  `"created_at":${text(row.created_at)},"last_seen_at":${nullable(text)(row.last_seen_at)},"conversations_count":${row.conversations_count}}`;

/** A release's own columns; its product, its count of issues and its issues follow. */
export const RELEASE = shape([
  ['id', text], ['workspace_id', text], ['product_id', text], ['title', text], ['description', nullable(text)],
  ['version', nullable(text)], ['released_at', nullable(text)], ['created_at', text], ['updated_at', text],
]);

/** An issue as a release lists it. */
export const RELEASE_ISSUE = shape([['id', text], ['title', text], ['status', text], ['priority', text]]);

export const LINKED_ISSUE = shape([['id', text], ['shortcode', text], ['title', text], ['status', text]]);

/** An open issue a deduplicating create names as close to its report, with its similarity. */
export const POSSIBLE_DUPLICATE = shape([['id', text], ['shortcode', text], ['title', text], ['score', number]]);

/** The member a key acts for, with their own settings, as GET /me shows it. */
export const KEY_MEMBER = shape([
  ['id', text], ['user_id', nullable(text)], ['role', text], ['display_name', nullable(text)], ['avatar_url', nullable(text)], ['availability', text],
  ['signature', nullable(text)], ['time_zone', nullable(text)], ['notify_email', flag],
]);
