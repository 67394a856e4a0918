// Webhook endpoints and their deliveries (docs/events.md), a settings operation: every method
// needs the settings role. The secret is shown when an endpoint is created and when it is rotated,
// never otherwise; URLs pass the SSRF guard whenever they are set.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { DeliveryStatus, WebhookDeliveryRepository, WebhookDeliveryRow } from '../../db/repositories/webhook-delivery.repository.js';
import type {
  WebhookEndpointChanges, WebhookEndpointRepository, WebhookEndpointRow,
} from '../../db/repositories/webhook-endpoint.repository.js';
import { invalidField, notFound } from '../../errors.js';
import type { EventType } from '../../events/event-types.js';
import { ForbiddenUrlError, type UrlGuard } from '../../events/ssrf.js';
import { previousSecretSignsUntil, SECRET_PREFIX } from '../../events/webhook-sender.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { changesBetween, redactedChanges, type AuditLog } from '../audit/audit-log.js';
import { updateUnderLock } from '../shared/changes.js';
import { inTransaction } from '../shared/unit-of-work.js';
import { requireSettingsRole } from '../accounts/roles.js';

/** An event type, or `*` for all of them. */
export type Subscription = EventType | '*';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: Subscription[];
  description: string | null;
  enabled: boolean;
  /** Until when the secret before the last rotation still signs too; null when only `secret` signs. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: EventType;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreateWebhookInput {
  url: string;
  events: Subscription[];
  description?: string | null;
}

export type UpdateWebhookInput = Partial<CreateWebhookInput & { enabled: boolean }>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const satisfies readonly DeliveryStatus[];

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** After a rotation the previous secret signs beside the new one for a day, unless the rotation says otherwise. */
export const PREVIOUS_SECRET_DEFAULT_SECONDS = 24 * 3600;
export const PREVIOUS_SECRET_MAX_SECONDS = 7 * 24 * 3600;

const toEndpoint = (row: WebhookEndpointRow, now: string): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events),
  description: row.description,
  enabled: row.enabled === 1,
  previous_secret_expires_at: previousSecretSignsUntil(row, now),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  event_id: row.event_id,
  event_type: row.event_type as EventType,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The subscription list as stored: `["*"]`, or the event types without repeats (the schema allows nothing else). */
const serializeEvents = (events: Subscription[]): string => JSON.stringify([...new Set(events)]);

export interface WebhookServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: Pick<WebhookDeliveryRepository, 'list' | 'findById' | 'requeue'>;
  urlGuard: Pick<UrlGuard, 'check'>;
  audit: AuditLog;
  clock: Clock;
}

export function createWebhookService({ db, dialect, webhookEndpoints, webhookDeliveries, urlGuard, audit, clock }: WebhookServiceDeps) {
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<WebhookEndpointRow> {
    requireSettingsRole(actor);
    const endpointId = parseUuid(id);
    const row = endpointId ? await webhookEndpoints.findById(actor.workspaceId, endpointId, tx) : undefined;
    if (!row) throw notFound('webhook');
    return row;
  }

  async function checkedUrl(text: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidField('url', 'must be an absolute http:// or https:// URL');
    }
    try {
      await urlGuard.check(url);
    } catch (error) {
      if (error instanceof ForbiddenUrlError) throw invalidField('url', error.message);
      throw error;
    }
    return text;
  }

  const shown = (row: WebhookEndpointRow): WebhookEndpoint => toEndpoint(row, clock.now());
  const withSecret = (row: WebhookEndpointRow): WebhookEndpointWithSecret => ({ ...shown(row), secret: row.secret });

  return {
    /** The settings role, checked before routing (docs/api.md: 403 before 404 and 400). */
    authorize: requireSettingsRole,

    /** Throws not_found unless the endpoint exists in the actor's workspace. */
    find,

    async list(actor: Actor, page: Page): Promise<PageOf<WebhookEndpoint>> {
      requireSettingsRole(actor);
      const { rows, total } = await webhookEndpoints.list(actor.workspaceId, page);
      return { rows: rows.map(shown), total };
    },

    async get(actor: Actor, id: string): Promise<WebhookEndpoint> {
      return shown(await find(actor, id));
    },

    async create(actor: Actor, input: CreateWebhookInput): Promise<WebhookEndpointWithSecret> {
      requireSettingsRole(actor);
      const url = await checkedUrl(input.url);
      const now = clock.now();
      const row: WebhookEndpointRow = {
        id: newId(), workspace_id: actor.workspaceId, url, events: serializeEvents(input.events), description: input.description ?? null, enabled: 1,
        secret: newSecret(), previous_secret: null, previous_secret_expires_at: null, created_at: now, updated_at: now,
      };
      await inTransaction(db, async (work) => {
        await webhookEndpoints.insert(row, work.tx);
        await audit.record(work, { actor, action: 'webhook.created', target_type: 'webhook', target_id: row.id });
      });
      return withSecret(row);
    },

    async update(actor: Actor, id: string, input: UpdateWebhookInput): Promise<WebhookEndpoint> {
      const { id: endpointId } = await find(actor, id);
      const wanted: WebhookEndpointChanges = {
        url: input.url === undefined ? undefined : await checkedUrl(input.url),
        events: input.events === undefined ? undefined : serializeEvents(input.events),
        description: input.description,
        enabled: input.enabled === undefined ? undefined : Number(input.enabled),
      };
      const { current, changes } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: `webhook:${endpointId}`,
        read: (tx) => find(actor, endpointId, tx),
        wanted,
        async write(work, current, changes) {
          await webhookEndpoints.update(actor.workspaceId, current.id, changes, work.tx);
          await audit.record(work, {
            actor, action: 'webhook.updated', target_type: 'webhook', target_id: current.id, changes: changesBetween(shown(current), shown({ ...current, ...changes })),
          });
        },
      });
      return shown(changes ? { ...current, ...changes } : current);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const { id: endpointId } = await find(actor, id);
      // Gone already when a concurrent DELETE won: the same outcome, recorded once.
      await inTransaction(db, async (work) => {
        if (await webhookEndpoints.delete(actor.workspaceId, endpointId, work.tx)) {
          await audit.record(work, { actor, action: 'webhook.deleted', target_type: 'webhook', target_id: endpointId });
        }
      });
    },

    /**
     * A new secret, signing every attempt from now on. The one it replaces signs beside it for
     * `previousSecretSeconds` more (0: stops at once), so a receiver keeps verifying while it is
     * updated; an older one, from a rotation before, stops.
     */
    async rotateSecret(actor: Actor, id: string, previousSecretSeconds = PREVIOUS_SECRET_DEFAULT_SECONDS): Promise<WebhookEndpointWithSecret> {
      const current = await find(actor, id);
      const now = clock.now();
      const keep = previousSecretSeconds > 0;
      const changes = {
        secret: newSecret(),
        previous_secret: keep ? current.secret : null,
        previous_secret_expires_at: keep ? new Date(Date.parse(now) + previousSecretSeconds * 1000).toISOString() : null,
        updated_at: now,
      };
      await inTransaction(db, async (work) => {
        await webhookEndpoints.update(actor.workspaceId, current.id, changes, work.tx);
        await audit.record(work, { actor, action: 'webhook.secret_rotated', target_type: 'webhook', target_id: current.id, changes: redactedChanges('secret') });
      });
      return withSecret({ ...current, ...changes });
    },

    async deliveries(actor: Actor, id: string, filters: { statuses?: DeliveryStatus[] }, page: Page): Promise<PageOf<WebhookDelivery>> {
      const endpoint = await find(actor, id);
      const { rows, total } = await webhookDeliveries.list(actor.workspaceId, endpoint.id, filters, page);
      return { rows: rows.map(toDelivery), total };
    },

    /** Queues a delivery again, due now: one more attempt, and the schedule's remaining retries if it fails. */
    async retryDelivery(actor: Actor, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await find(actor, id);
      const canonical = parseUuid(deliveryId);
      const delivery = canonical ? await webhookDeliveries.findById(actor.workspaceId, endpoint.id, canonical) : undefined;
      if (!delivery) throw notFound('delivery');
      const now = clock.now();
      await webhookDeliveries.requeue(actor.workspaceId, delivery.id, now);
      return toDelivery({ ...delivery, status: 'pending', next_attempt_at: now, updated_at: now });
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
