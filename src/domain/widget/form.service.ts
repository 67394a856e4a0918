// Forms sent through the widget (docs/widget.md): anyone may file a ticket, idea or feedback,
// which the team sees as a conversation with source `form`. A filled honeypot (`website`) gets a
// normal-looking answer and stores nothing; proof of work is checked after it, so a bot learns
// nothing from the answer either way.
import type { Db } from '../../db/database.js';
import type { NewConversationRow } from '../../db/repositories/conversation.repository.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { nonBlankContactName } from '../contacts/contact-name.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import type { ConversationStatus, ConversationType } from '../shared/enums.js';
import { boundedJson } from '../shared/json-limits.js';
import type { ProofOfWork } from './proof-of-work.service.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { VisitorContacts } from './visitor-contacts.js';
import { FORM_FIELDS_MAX_BYTES } from './visitor.shapes.js';
import type { WidgetProduct } from './widget-settings.js';

export interface FormInput {
  type?: Exclude<ConversationType, 'chat'>;
  title: string;
  body: string;
  name?: string;
  email?: string;
  fields?: Record<string, unknown>;
  altcha?: string;
  website?: string;
}

export interface FormReceipt {
  id: string;
  status: ConversationStatus;
}

export interface FormServiceDeps {
  db: Db;
  writes: ConversationWrites;
  visitorContacts: VisitorContacts;
  proofOfWork: ProofOfWork;
  clock: Clock;
}

export function createFormService({ db, writes, visitorContacts, proofOfWork, clock }: FormServiceDeps) {
  return {
    async submit(product: WidgetProduct, input: FormInput): Promise<FormReceipt> {
      if (input.website !== undefined && input.website.trim() !== '') return { id: newId(), status: 'open' };
      const fields = input.fields === undefined ? null : boundedJson('fields', input.fields, FORM_FIELDS_MAX_BYTES);
      const name = nonBlankContactName('name', input.name);
      if (product.settings.proof_of_work) await proofOfWork.verifyOnce(product.id, input.altcha);
      const contact = await visitorContacts.unverified(product, name, input.email?.toLowerCase() ?? null);
      const now = clock.now();
      const row: NewConversationRow = {
        id: newId(), workspace_id: product.workspace_id, product_id: product.id, contact_id: contact.id,
        type: input.type ?? 'ticket', source: 'form', channel: 'form', status: 'open', priority: 'normal', title: input.title,
        ai_summary: null, rating: null, upvotes: 0, widget_session_id: null, form_fields: fields, tags: '[]', created_at: now, updated_at: now,
      };
      const created = await inTransaction(db, (work) => writes.create(work, row, contact, {
        id: newId(), workspace_id: product.workspace_id, conversation_id: row.id, sender_type: 'contact',
        sender_id: contact.id, sender_name: name, body: input.body, created_at: now, internal: 0,
      }));
      return { id: created.id, status: created.status };
    },
  };
}

export type FormService = ReturnType<typeof createFormService>;
