// The floor's widget route: a visitor's message, with the checks the server makes before it (the
// widget key names a product whose widget is on, the session token names a live session of that
// product, touched at most once a minute, and the conversation is one the visitor may see).
import { createHash } from 'node:crypto';
import type { Visitor } from '../../src/domain/widget/widget-session.service.js';
import { parseUuid } from '../../src/lib/ids.js';
import { CONVERSATION_WITH_CONTACT, failure, notFound, ok, type Answer } from './reads.js';
import type { Row, Store } from './store.js';
import { addMessage, lockConversation, messageBody, messageRow } from './writes.js';

const WIDGET_KEY = /^wk_[0-9A-Za-z]{24}$/;
const SESSION_TOKEN = /^wst_[0-9A-Za-z]{40}$/;
const SESSION_TTL_MS = 30 * 24 * 3600_000;
const TOUCH_EVERY_MS = 60_000;

const SESSION_BY_HASH =
  'select s.id, s.workspace_id, s.product_id, s.contact_id, s.verified, s.name, s.created_at, s.last_used_at, ct.name as contact_name ' +
  'from widget_sessions s join contacts ct on ct.id = s.contact_id where s.token_hash = ?';

/** The product of a widget key, if its widget is on (`enabled` in widget_config, on unless false). */
async function widgetProduct(store: Store, widgetKey: string): Promise<{ product: Row } | { refused: Answer }> {
  const product = WIDGET_KEY.test(widgetKey)
    ? await store.one('select id, workspace_id, name, widget_key, domain, widget_config, updated_at from products where widget_key = ?', [widgetKey])
    : undefined;
  if (!product) return { refused: notFound('widget') };
  const config = product.widget_config === null ? {} : (JSON.parse(product.widget_config as string) as { enabled?: unknown });
  if (config.enabled === false) return { refused: failure(403, 'forbidden', 'the widget of this product is disabled') };
  return { product };
}

/** The visitor of a `wst_` token on this product: live (used in the last 30 days), last_used_at moved once a minute. */
async function visitorOf(store: Store, product: Row, token: string | undefined): Promise<Visitor | null> {
  if (!token || !SESSION_TOKEN.test(token)) return null;
  const session = await store.one(SESSION_BY_HASH, [createHash('sha256').update(token).digest('hex')]);
  if (!session || session.product_id !== product.id) return null;
  const now = Date.now();
  const lastUsed = Date.parse(session.last_used_at as string);
  if (now >= lastUsed + SESSION_TTL_MS) return null;
  if (now - lastUsed >= TOUCH_EVERY_MS) {
    await store.run('update widget_sessions set last_used_at = ? where id = ? and last_used_at < ?', [
      new Date(now).toISOString(), session.id, new Date(now - TOUCH_EVERY_MS).toISOString(),
    ]);
  }
  const verified = session.verified === 1;
  return {
    sessionId: session.id as string, workspaceId: session.workspace_id as string, productId: session.product_id as string,
    contactId: session.contact_id as string, verified, name: (verified ? session.contact_name : session.name) as string | null,
  };
}

/** A conversation the visitor may see: of this product, and their contact's (verified) or their session's. */
async function visibleConversation(store: Pick<Store, 'one'>, visitor: Visitor, id: string | null): Promise<Row | undefined> {
  const row = id ? await store.one(CONVERSATION_WITH_CONTACT, [visitor.workspaceId, id]) : undefined;
  const sees = row && row.product_id === visitor.productId &&
    (visitor.verified ? row.contact_id === visitor.contactId : row.widget_session_id === visitor.sessionId);
  return sees ? row : undefined;
}

const NOT_FOUND = notFound('conversation');

/** POST /widget/v1/{widget_key}/conversations/{id}/messages: the visitor's reply (the bench's conversations are open). */
export async function postVisitorMessage(store: Store, widgetKey: string, token: string | undefined, rawId: string, body: Record<string, unknown> | null): Promise<Answer> {
  const widget = await widgetProduct(store, widgetKey);
  if ('refused' in widget) return widget.refused;
  const visitor = await visitorOf(store, widget.product, token);
  if (!visitor) return failure(401, 'unauthorized', 'invalid or expired widget session: start a new one with POST /sessions');
  const id = parseUuid(rawId);
  if (!(await visibleConversation(store, visitor, id))) return NOT_FOUND;
  const text = body && Object.keys(body).length === 1 ? messageBody(body) : undefined;
  if (text === undefined) return failure(400, 'validation_error', 'body: must be an object with a non-blank body');
  const message = await store.transaction(async (tx) => {
    await lockConversation(tx, id!);
    const current = await visibleConversation(tx, visitor, id);
    if (!current) return null;
    if (current.status === 'resolved') return undefined;
    const row = messageRow(visitor.workspaceId, current.id as string, { sender_type: 'contact', sender_id: visitor.contactId, sender_name: visitor.name }, text);
    await addMessage(tx, row);
    return row;
  });
  if (message === null) return NOT_FOUND;
  if (message === undefined) return failure(501, 'not_implemented', 'the floor does not open resolved conversations again');
  const { id: messageId, sender_type, sender_name, body: said, created_at } = message;
  return ok(`{"data":{"id":"${messageId}","sender_type":"${sender_type}","sender_name":${JSON.stringify(sender_name)},"body":${JSON.stringify(said)},"created_at":"${created_at}"}}`, 201);
}
