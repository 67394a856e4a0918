// The widget API's shapes as the frame uses them: named after the generated types of its OpenAPI
// document (widget-api.d.ts, `npm run generate:widget`), so a change of the API shows here.
import type { components, operations } from './widget-api.js';

type Schemas = components['schemas'];
type Answer<Operation extends keyof operations> = operations[Operation]['responses'] extends { 200: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

export type WidgetConfig = Schemas['WidgetConfig'];
export type Challenge = Answer<'getWidgetChallenge'>;
export type Session = Schemas['WidgetSession'];
export type VisitorMessage = Schemas['VisitorMessage'];
export type VisitorConversation = Schemas['VisitorConversation'];
export type VisitorConversationSummary = Schemas['VisitorConversationSummary'];
export type ConversationStatus = VisitorConversation['status'];
export type Idea = Schemas['WidgetIdea'];
export type Upvote = Schemas['WidgetUpvote'];

/** JSON values kept per widget key (localStorage in the browser, see storage.ts). */
export interface KeyValueStore {
  get<T>(name: string): T | null;
  set(name: string, value: unknown): void;
  remove(name: string): void;
}
export type ArticleSummary = Schemas['WidgetArticleSummary'];
export type Article = Schemas['WidgetArticle'];
export type ArticleFeedback = Schemas['WidgetArticleFeedback'];
