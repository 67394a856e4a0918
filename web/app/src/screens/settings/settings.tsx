// Settings (owners and admins; the server answers 403 to anyone else anyway): products and their
// widget, members and invitations, API keys, webhooks and their deliveries, saved replies, single sign-on.
import { useEffect } from 'preact/hooks';
import { Link, match, navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { EmptyState, PageHeader } from '../../ui/page.js';
import { ApiKeys } from './api-keys.js';
import { Members } from './members.js';
import { ProductSettings } from './product-settings.js';
import { Products } from './products.js';
import { SavedReplies } from './saved-replies.js';
import { SingleSignOn } from './single-sign-on.js';
import { WebhookView } from './webhook-view.js';
import { Webhooks } from './webhooks.js';

const TABS = [
  { href: '/settings/products', label: 'Products' },
  { href: '/settings/members', label: 'Members' },
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/saved-replies', label: 'Saved replies' },
  { href: '/settings/single-sign-on', label: 'Single sign-on' },
];

export function Settings({ path }: { path: string }) {
  const { canManageSettings } = useSession();
  useEffect(() => {
    if (path === '/settings') navigate('/settings/products', { replace: true });
  }, [path]);
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
  if (path === '/settings/single-sign-on') return <SingleSignOn />;
  return <Products />;
}
