// How the API's enum values and timestamps read on screen.
import type { Schemas } from '../api/client.js';
import { compactMinutes } from './durations.js';

export type IssueStatus = Schemas['Issue']['status'];
export type ConversationStatus = Schemas['Conversation']['status'];
export type Priority = Schemas['Issue']['priority'];
export type ConversationType = Schemas['Conversation']['type'];

export const ISSUE_STATUSES: Record<IssueStatus, string> = {
  pending: 'Pending', in_progress: 'In progress', icebox: 'Icebox', done: 'Done', released: 'Released', dismissed: 'Dismissed',
};
export const CONVERSATION_STATUSES: Record<ConversationStatus, string> = {
  open: 'Open', in_progress: 'In progress', resolved: 'Resolved', dismissed: 'Dismissed',
};
export const PRIORITIES: Record<Priority, string> = { urgent: 'Urgent', high: 'High', normal: 'Normal', low: 'Low' };
export const CONVERSATION_TYPES: Record<ConversationType, string> = { ticket: 'Ticket', chat: 'Chat', idea: 'Idea', feedback: 'Feedback' };
export type ConversationChannel = Schemas['Conversation']['channel'];
export const CONVERSATION_CHANNELS: Record<ConversationChannel, string> = { chat: 'Chat', form: 'Form', email: 'Email', import: 'Imported' };

/**
 * What happened, as a conversation's meta line says it: how it came in ("Email", "Chat", "Form",
 * "Imported"), and its type where the channel does not say it already (an idea, feedback).
 */
export function arrivalLabel({ channel, type }: { channel: ConversationChannel; type: ConversationType }): string {
  return type === 'idea' || type === 'feedback' ? `${CONVERSATION_CHANNELS[channel]} · ${CONVERSATION_TYPES[type]}` : CONVERSATION_CHANNELS[channel];
}

export type SuggestionKind = Schemas['Suggestion']['kind'];
export const SUGGESTION_KINDS: Record<SuggestionKind, string> = { link: 'Link', create: 'New issue' };

/** A similarity (0–1) as a whole percentage: "77%". */
export const percent = (score: number) => `${Math.round(score * 100)}%`;

export const entries = <K extends string>(labels: Record<K, string>) => Object.entries(labels) as [K, string][];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** "5 min ago", "yesterday", or a date for anything older than a week. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return dateOnly.format(new Date(iso));
}

/** How long since `iso`, compactly, for a waiting customer: "4 min", "3 h", "2 d". */
export function waited(iso: string, now = Date.now()): string {
  return compactMinutes(Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000)));
}

export const fullDate = (iso: string) => absolute.format(new Date(iso));
export const shortDate = (iso: string) => dateOnly.format(new Date(iso));

/** Initials for an avatar: "Ana Lima" → "AL". */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words[words.length - 1][0] : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}
