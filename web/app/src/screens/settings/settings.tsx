// Settings (owners and admins; the server answers 403 to anyone else anyway): products and their
// widget, members and invitations, API keys, webhooks and their deliveries, saved replies, service
// levels, automation rules and macros, the audit log, single sign-on. Macros are any member's, so
// agents reach that section alone.
import { useEffect } from 'preact/hooks';
import { Link, match, navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { EmptyState, PageHeader } from '../../ui/page.js';
import { ApiKeys } from './api-keys.js';
import { AuditLog } from './audit-log.js';
import { Members } from './members.js';
import { ProductSettings } from './product-settings.js';
import { Products } from './products.js';
import { SavedReplies } from './saved-replies.js';
import { ServiceLevels } from './service-levels.js';
import { MacroEditor, Macros, MACROS_PATH } from '../automation/macros.js';
import { RuleEditor, RULES_PATH } from '../automation/rule-editor.js';
import { Rules } from '../automation/rules.js';
import { SingleSignOn } from './single-sign-on.js';
import { WebhookView } from './webhook-view.js';
import { Webhooks } from './webhooks.js';

const TABS = [
  { href: '/settings/products', label: 'Products' },
  { href: '/settings/members', label: 'Members' },
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/saved-replies', label: 'Saved replies' },
  { href: '/settings/service-levels', label: 'Service levels' },
  { href: RULES_PATH, label: 'Automation' },
  { href: MACROS_PATH, label: 'Macros' },
  { href: '/settings/audit-log', label: 'Audit log' },
  { href: '/settings/single-sign-on', label: 'Single sign-on' },
];

export function Settings({ path }: { path: string }) {
  const { canManageSettings } = useSession();
  useEffect(() => {
    if (path === '/settings') navigate('/settings/products', { replace: true });
  }, [path]);
  if (!canManageSettings && path.startsWith(MACROS_PATH)) {
    return <div class="page"><PageHeader title="Macros" /><Section path={path} /></div>;
  }
  if (!canManageSettings) {
    return (
      <div class="page">
        <PageHeader title="Settings" />
        <EmptyState title="Settings are for owners and admins">Ask one of them to change products, members, keys or webhooks.</EmptyState>
      </div>
    );
  }
  return (
    <div class="page">
      <PageHeader title="Settings" />
      <nav class="tabs" aria-label="Settings">
        {TABS.map((tab) => (
          <Link key={tab.href} href={tab.href} class="tab" aria-current={path === tab.href || path.startsWith(`${tab.href}/`) ? 'page' : undefined}>{tab.label}</Link>
        ))}
      </nav>
      <Section path={path} />
    </div>
  );
}

function Section({ path }: { path: string }) {
  const product = match('/settings/products/:id', path);
  if (product) return <ProductSettings id={product.id} />;
  const webhook = match('/settings/webhooks/:id', path);
  if (webhook) return <WebhookView id={webhook.id} />;
  if (path === '/settings/members') return <Members />;
  if (path === '/settings/api-keys') return <ApiKeys />;
  if (path === '/settings/webhooks') return <Webhooks />;
  if (path === '/settings/saved-replies') return <SavedReplies />;
  if (path === '/settings/service-levels') return <ServiceLevels />;
  const editing = (base: string) => (path === `${base}/new` ? null : match(`${base}/:id`, path)?.id);
  if (path === RULES_PATH) return <Rules />;
  const rule = editing(RULES_PATH);
  if (rule !== undefined) return <RuleEditor id={rule} />;
  if (path === MACROS_PATH) return <Macros />;
  const macro = editing(MACROS_PATH);
  if (macro !== undefined) return <MacroEditor id={macro} />;
  if (path === '/settings/audit-log') return <AuditLog />;
  if (path === '/settings/single-sign-on') return <SingleSignOn />;
  return <Products />;
}
