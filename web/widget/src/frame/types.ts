// The widget API's shapes (platform.md §1, the /widget/v1/{widget_key} table), as the frame uses them.

export interface WidgetConfig {
  product: { name: string };
  greeting: string | null;
  color: string | null;
  require_identity: boolean;
  proof_of_work: boolean;
  ideas_public: boolean;
}

export interface Challenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber: number;
}

export interface Contact {
  id: string;
  name: string | null;
  email: string | null;
  verified: boolean;
}

export interface Session {
  token: string;
  expires_at: string;
  contact: Contact;
}

export type SenderType = 'contact' | 'agent' | 'system';

export interface VisitorMessage {
  id: string;
  sender_type: SenderType;
  sender_name: string | null;
  body: string;
  created_at: string;
}

export type ConversationStatus = 'open' | 'in_progress' | 'resolved' | 'dismissed';

export interface VisitorConversation {
  id: string;
  type: string;
  status: ConversationStatus;
  title: string;
  rating: number | null;
  created_at: string;
  updated_at: string;
  messages?: VisitorMessage[];
}

export interface Idea {
  id: string;
  title: string;
  status: string;
  upvotes: number;
  created_at: string;
  upvoted: boolean;
}

/** JSON values kept per widget key (localStorage in the browser, see storage.ts). */
export interface KeyValueStore {
  get<T>(name: string): T | null;
  set(name: string, value: unknown): void;
  remove(name: string): void;
}
