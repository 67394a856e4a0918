// Products: slug and issue-prefix rules, generated keys, workspace scoping.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { ProductChanges, ProductRepository, ProductRow } from '../../db/repositories/product.repository.js';
import type { WidgetSessionRepository } from '../../db/repositories/widget-session.repository.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { randomToken } from '../../lib/tokens.js';
import type { Actor } from '../accounts/actor.js';
import type { Outbox } from '../../events/outbox.js';
import { changesBetween, redactedChanges, type AuditLog } from '../audit/audit-log.js';
import { previousOf, updateUnderLock } from '../shared/changes.js';
import { inTransaction } from '../shared/unit-of-work.js';
import { newIdentitySecret } from '../widget/identity-token.js';
import { boundedJson, JSON_OBJECT_MAX_DEPTH } from '../shared/json-limits.js';
import { freePrefix, freeSlug, inboundName, prefixFromName, slugFromName, slugStem } from './product-naming.js';
import { requireSettingsRole } from '../accounts/roles.js';
import type { TriageMode } from '../shared/enums.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import { checkedAssignment, DEFAULT_ASSIGNMENT, parseAssignment, type AssignmentSettings } from '../assignment/assignment-settings.js';

export interface Product {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  issue_prefix: string;
  widget_key: string;
  product_key: string;
  widget_config: Record<string, unknown> | null;
  domain: string | null;
  /** [ext] The HTML that embeds the product's widget in a page. */
  embed_snippet: string;
  /** [ext] What triage does with the product's conversations. */
  triage: TriageMode;
  /** [ext] The address whose mail becomes the product's conversations; null without LOOPDESK_INBOUND_DOMAIN. */
  inbound_email: string | null;
  /** [ext] The public help center's path segment: /help/{help_slug} (docs/help-center.md). */
  help_slug: string;
  /** [ext] Whether the public help center is on. */
  help_center: boolean;
  /** [ext] Fair assignment of its new conversations (docs/automation.md, "Assignment"). */
  assignment: AssignmentSettings;
  created_at: string;
  updated_at: string;
}

export interface ProductInput {
  name: string;
  slug?: string;
  issue_prefix?: string;
  widget_config?: Record<string, unknown> | null;
  domain?: string | null;
  triage?: TriageMode;
  help_slug?: string;
  help_center?: boolean;
}

/** What a PATCH may change besides a create's fields. */
export interface ProductUpdate extends Partial<ProductInput> {
  assignment?: AssignmentSettings;
}

export const WIDGET_CONFIG_MAX_BYTES = 16 * 1024;
export const WIDGET_CONFIG_MAX_DEPTH = JSON_OBJECT_MAX_DEPTH;

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** docs/widget.md: `<script src="{base}/widget.js" data-widget-key="wk_…" async></script>`. */
export const embedSnippet = (base: string, widgetKey: string): string =>
  `<script src="${escapeAttribute(base)}/widget.js" data-widget-key="${widgetKey}" async></script>`;

/**
 * The product as the API shows it; `base` is the server's public URL, or the origin the request
 * reached; `inboundDomain` the domain of inbound addresses (null: none).
 */
export const productShape = (row: ProductRow, base: string, inboundDomain: string | null): Product => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  slug: row.slug,
  issue_prefix: row.issue_prefix,
  widget_key: row.widget_key,
  product_key: row.product_key,
  widget_config: row.widget_config === null ? null : JSON.parse(row.widget_config),
  domain: row.domain,
  embed_snippet: embedSnippet(base, row.widget_key),
  triage: row.triage as TriageMode,
  inbound_email: inboundDomain === null ? null : `${row.inbound_name}@${inboundDomain}`,
  help_slug: row.help_slug,
  help_center: row.help_center === 1,
  assignment: parseAssignment(row.assignment),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * A product's widget_config (whether the widget is on, its proof of work, whether it requires an
 * identity, what it shows) and its domain (the origins allowed) are its security settings: only the
 * settings role sets them. Its other fields stay open to agents.
 */
const SECURITY_SETTINGS = 'widget_config and domain';
/** What the public help center shows and where: the settings role's too (docs/help-center.md). */
const HELP_SETTINGS = 'help_slug and help_center';
/** Who gets the product's conversations: the settings role's too. */
const ASSIGNMENT_SETTINGS = 'assignment';

const serializeWidgetConfig = (config: Record<string, unknown> | null): string | null =>
  config === null ? null : boundedJson('widget_config', config, WIDGET_CONFIG_MAX_BYTES);

export interface ProductServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'isUniqueViolation' | 'lockKeyInTransaction'>;
  products: ProductRepository;
  widgetSessions: Pick<WidgetSessionRepository, 'deleteVerified'>;
  outbox: Outbox;
  audit: AuditLog;
  clock: Clock;
  /** LOOPDESK_INBOUND_DOMAIN; null: products show no inbound address. */
  inboundDomain: string | null;
  members: Pick<MemberRepository, 'findById'>;
  /** After a commit that changed a product's assignment: its waiting conversations may move. */
  onAssignmentChanged: (workspaceId: string, productId: string) => void;
}

/**
 * The one writer of products: each create and effective update records its event here. Products
 * are shown with their embed snippet, whose `base` URL each caller gives (the request's).
 */
export function createProductService({ db, dialect, products, widgetSessions, outbox, audit, clock, inboundDomain, members, onAssignmentChanged }: ProductServiceDeps) {
  const toProduct = (row: ProductRow, base: string) => productShape(row, base, inboundDomain);

  async function find(actor: Actor, id: string, tx: Executor = db): Promise<ProductRow> {
    const productId = parseUuid(id);
    const row = productId ? await products.findById(actor.workspaceId, productId, tx) : undefined;
    if (!row) throw notFound('product');
    return row;
  }

  const taken = (field: 'slug' | 'issue_prefix') => invalidField(field, 'is already taken in this workspace');
  const helpSlugTaken = () => invalidField('help_slug', 'is already taken (help slugs are unique across the installation)');

  return {
    /** Throws not_found unless the product exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    async get(actor: Actor, id: string, base: string): Promise<Product> {
      return toProduct(await find(actor, id), base);
    },

    async list(actor: Actor, page: Page, base: string): Promise<PageOf<Product>> {
      const { rows, total } = await products.list(actor.workspaceId, page);
      return { rows: rows.map((row) => toProduct(row, base)), total };
    },

    /**
     * [ext] A new identity secret (settings role), shown only in this answer; the old one stops
     * verifying at once, and the verified sessions it vouched for end with it.
     */
    async rotateIdentitySecret(actor: Actor, id: string): Promise<{ identity_secret: string }> {
      requireSettingsRole(actor);
      const { id: productId } = await find(actor, id);
      const secret = newIdentitySecret();
      await inTransaction(db, async (work) => {
        await products.setIdentitySecret(actor.workspaceId, productId, secret, work.tx);
        await widgetSessions.deleteVerified(actor.workspaceId, productId, work.tx);
        await audit.record(work, {
          actor, action: 'product.identity_secret_rotated', target_type: 'product', target_id: productId, changes: redactedChanges('identity_secret'),
        });
      });
      return { identity_secret: secret };
    },

    async create(actor: Actor, input: ProductInput, base: string): Promise<Product> {
      if ((input.widget_config ?? null) !== null || (input.domain ?? null) !== null) requireSettingsRole(actor, SECURITY_SETTINGS);
      if (input.help_slug !== undefined || input.help_center !== undefined) requireSettingsRole(actor, HELP_SETTINGS);
      const widgetConfig = serializeWidgetConfig(input.widget_config ?? null);
      const insertOnce = () =>
        inTransaction(db, async (work) => {
          const { tx } = work;
          // Creates in one workspace take turns, so concurrent ones never pick the same slug or prefix.
          await dialect.lockKeyInTransaction(tx, `products:${actor.workspaceId}`);
          const slugBase = input.slug ?? slugFromName(input.name);
          const slug = freeSlug(slugBase, new Set(await products.slugsStartingWith(actor.workspaceId, slugStem(slugBase), tx)));
          const prefixes = new Set(await products.prefixes(actor.workspaceId, tx));
          if (input.issue_prefix !== undefined && prefixes.has(input.issue_prefix)) throw taken('issue_prefix');
          if (input.help_slug !== undefined && (await products.isHelpSlugTaken(input.help_slug, null, tx))) throw helpSlugTaken();
          // Derived from the slug, and free across the installation: another workspace may hold the slug itself.
          const helpSlug = input.help_slug ?? freeSlug(slug, new Set(await products.helpSlugsStartingWith(slugStem(slug), tx)));
          const now = clock.now();
          const row: ProductRow = {
            id: newId(),
            workspace_id: actor.workspaceId,
            name: input.name,
            slug,
            issue_prefix: input.issue_prefix ?? freePrefix(prefixFromName(input.name), prefixes),
            widget_key: randomToken('wk_', 24),
            product_key: randomToken('pk_', 24),
            widget_config: widgetConfig,
            domain: input.domain ?? null,
            triage: input.triage ?? 'suggest',
            inbound_name: inboundName(slug),
            help_slug: helpSlug,
            help_center: input.help_center === false ? 0 : 1,
            help_version: 0,
            assignment: JSON.stringify(DEFAULT_ASSIGNMENT),
            created_at: now,
            updated_at: now,
          };
          await products.insert(row, tx);
          const product = toProduct(row, base);
          await outbox.record(work, { type: 'product.created', workspaceId: actor.workspaceId, data: product });
          await audit.record(work, { actor, action: 'product.created', target_type: 'product', target_id: row.id });
          return product;
        });
      // A concurrent PATCH may still take the slug or prefix between our read and our insert (or
      // another workspace's product the inbound name): the generated values are then chosen again.
      for (let attempt = 1; ; attempt++) {
        try {
          return await insertOnce();
        } catch (error) {
          if (!dialect.isUniqueViolation(error) || attempt === 5) throw error;
        }
      }
    },

    async update(actor: Actor, id: string, input: ProductUpdate, base: string): Promise<Product> {
      const { id: productId } = await find(actor, id);
      const assignment = input.assignment && (await checkedAssignment(members, actor.workspaceId, input.assignment));
      const wanted: ProductChanges = {
        name: input.name,
        slug: input.slug,
        issue_prefix: input.issue_prefix,
        widget_config: input.widget_config === undefined ? undefined : serializeWidgetConfig(input.widget_config),
        domain: input.domain,
        triage: input.triage,
        help_slug: input.help_slug,
        help_center: input.help_center === undefined ? undefined : Number(input.help_center),
        assignment,
      };
      const { current, changes } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: `product:${productId}`,
        read: (tx) => find(actor, productId, tx),
        wanted,
        async write(work, current, changes) {
          const { tx } = work;
          // Judged on the effective changes: sending back the stored values (a GET, edited, PATCHed whole) is no change.
          if (changes.widget_config !== undefined || changes.domain !== undefined) requireSettingsRole(actor, SECURITY_SETTINGS);
          if (changes.help_slug !== undefined || changes.help_center !== undefined) requireSettingsRole(actor, HELP_SETTINGS);
          if (changes.assignment !== undefined) {
            requireSettingsRole(actor, ASSIGNMENT_SETTINGS);
            work.afterCommit(() => onAssignmentChanged(actor.workspaceId, current.id));
          }
          if (changes.help_slug !== undefined && (await products.isHelpSlugTaken(changes.help_slug, current.id, tx))) throw helpSlugTaken();
          if (changes.slug !== undefined && (await products.isTaken(actor.workspaceId, 'slug', changes.slug, tx))) throw taken('slug');
          if (changes.issue_prefix !== undefined && (await products.isTaken(actor.workspaceId, 'issue_prefix', changes.issue_prefix, tx))) {
            throw taken('issue_prefix');
          }
          try {
            await products.update(actor.workspaceId, current.id, changes, tx);
          } catch (error) {
            // Lost a race for the slug or prefix to a concurrent create or another product's PATCH.
            if (dialect.isUniqueViolation(error)) throw changes.help_slug !== undefined ? helpSlugTaken() : taken(changes.issue_prefix !== undefined ? 'issue_prefix' : 'slug');
            throw error;
          }
          const [before, after] = [toProduct(current, base), toProduct({ ...current, ...changes }, base)];
          await outbox.record(work, { type: 'product.updated', workspaceId: actor.workspaceId, data: after, previous: previousOf(before, changes) });
          await audit.record(work, { actor, action: 'product.updated', target_type: 'product', target_id: current.id, changes: changesBetween(before, after) });
        },
      });
      return toProduct(changes ? { ...current, ...changes } : current, base);
    },
  };
}

export type ProductService = ReturnType<typeof createProductService>;
