// One product: its names, the domain its widget may run on, the widget's settings (docs/widget.md;
// keys the platform does not read are kept as they are), the snippet that embeds it (the server's)
// its inbound email address and how to forward mail to it, the triage setting, who its new
// conversations are assigned to, and the identity secret.
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, Checkbox, FormError, TextField } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { EmptyState } from '../../ui/page.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { AssignmentSetting, assignmentBody, assignmentDraft } from './assignment-setting.js';
import { IdentitySecret } from './identity-secret.js';
import { TriageSetting } from './triage-setting.js';

type Product = Schemas['Product'];

/** The widget_config switches the platform reads, with their defaults. */
const SWITCHES = [
  { key: 'enabled', label: 'Widget enabled', default: true, hint: 'Off: every widget endpoint answers 403.' },
  { key: 'proof_of_work', label: 'Proof of work against spam', default: true, hint: 'Visitors\' browsers solve a small puzzle before writing in.' },
  { key: 'require_identity', label: 'Require a signed-in visitor', default: false, hint: 'Only visitors your site vouches for with an identity token.' },
  { key: 'ideas_public', label: 'Ideas visible to everyone', default: true },
  { key: 'changelog_public', label: 'Public changelog', default: true },
] as const;

export function ProductSettings({ id }: { id: string }) {
  const { products } = useSession();
  const product = products.find((p) => p.id === id);
  if (!product) return <EmptyState title="No such product"><Link href="/settings/products">Back to products</Link></EmptyState>;
  return <ProductForm key={product.updated_at} product={product} />;
}

function ProductForm({ product }: { product: Product }) {
  const { reloadProducts } = useSession();
  const config = product.widget_config ?? {};
  const [name, setName] = useState(product.name);
  const [slug, setSlug] = useState(product.slug);
  const [prefix, setPrefix] = useState(product.issue_prefix);
  const [domain, setDomain] = useState(product.domain ?? '');
  const [triage, setTriage] = useState(product.triage);
  const [assignment, setAssignment] = useState(() => assignmentDraft(product.assignment));
  const [greeting, setGreeting] = useState(typeof config.greeting === 'string' ? config.greeting : '');
  const [color, setColor] = useState(typeof config.color === 'string' ? config.color : '');
  const [switches, setSwitches] = useState<Record<string, boolean>>(
    Object.fromEntries(SWITCHES.map((s) => [s.key, typeof config[s.key] === 'boolean' ? (config[s.key] as boolean) : s.default])),
  );
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const widgetConfig: Record<string, unknown> = { ...config, ...switches };
      if (greeting.trim()) widgetConfig.greeting = greeting.trim();
      else delete widgetConfig.greeting;
      if (color.trim()) widgetConfig.color = color.trim();
      else delete widgetConfig.color;
      await ok(api.PATCH('/api/v1/products/{id}', {
        params: { path: { id: product.id } },
        body: { name, slug, issue_prefix: prefix, domain: domain.trim() || null, widget_config: widgetConfig, triage, assignment: assignmentBody(assignment) },
      }));
      await reloadProducts();
      announce('Product saved');
    });
  };
  const { fields } = action;
  return (
    <div class="stack">
      <Link href="/settings/products" class="back-link-inline"><Icon name="back" size={16} />Products</Link>
      <form class="stack" onSubmit={submit} noValidate>
        <section class="card card-body stack" aria-labelledby="product-heading">
          <h2 id="product-heading">{product.name}</h2>
          <FormError message={action.message} />
          <div class="settings-grid">
            <TextField label="Name" required maxLength={200} value={name} error={fields.name} onInput={(event) => setName(event.currentTarget.value)} />
            <TextField label="Slug" required maxLength={64} value={slug} error={fields.slug} onInput={(event) => setSlug(event.currentTarget.value)} />
            <TextField label="Issue prefix" required maxLength={3} value={prefix} error={fields.issue_prefix}
              hint="1–3 capital letters or digits; existing shortcodes keep theirs." onInput={(event) => setPrefix(event.currentTarget.value)} />
            <TextField label="Domain" maxLength={253} value={domain} error={fields.domain} placeholder="example.com"
              hint="The widget answers only on this site and its subdomains; empty: anywhere." onInput={(event) => setDomain(event.currentTarget.value)} />
          </div>
          <TriageSetting value={triage} onChange={setTriage} error={fields.triage} />
        </section>
        <section class="card card-body stack" aria-labelledby="widget-heading">
          <h2 id="widget-heading">Widget</h2>
          <div class="settings-grid">
            <TextField label="Greeting" value={greeting} error={fields['widget_config.greeting']} placeholder="Hi! How can we help?" onInput={(event) => setGreeting(event.currentTarget.value)} />
            <TextField label="Colour" value={color} error={fields['widget_config.color']} placeholder="#4338ca" hint="A CSS hex colour for the launcher and buttons." onInput={(event) => setColor(event.currentTarget.value)} />
          </div>
          <div class="settings-grid">
            {SWITCHES.map((s) => (
              <Checkbox key={s.key} label={s.label} hint={'hint' in s ? s.hint : undefined} checked={switches[s.key]} onChange={(on) => setSwitches((all) => ({ ...all, [s.key]: on }))} />
            ))}
          </div>
          {fields.widget_config && <p class="field-error">{fields.widget_config}</p>}
          <CopyValue label="Embed snippet" multiline value={product.embed_snippet} note="Paste it before </body> on every page that should show the support launcher." />
          <dl class="meta-list">
            <dt>Widget key</dt><dd><code>{product.widget_key}</code></dd>
            <dt>Changelog</dt><dd><a href={`/widget/v1/${product.widget_key}/changelog`} target="_blank" rel="noopener">Public changelog <Icon name="external" size={12} /></a></dd>
          </dl>
        </section>
        <AssignmentSetting value={assignment} onChange={setAssignment} fields={fields} />
        <InboundEmail product={product} />
        <div class="row"><span class="spacer" /><Button type="submit" variant="primary" busy={action.busy}>Save product</Button></div>
      </form>
      <IdentitySecret productId={product.id} widgetKey={product.widget_key} />
    </div>
  );
}

/** Where the product's customers write by email, and how to get a support mailbox's mail there. */
function InboundEmail({ product }: { product: Product }) {
  return (
    <section class="card card-body stack" aria-labelledby="email-heading">
      <h2 id="email-heading">Email</h2>
      {product.inbound_email ? (
        <>
          <CopyValue label="Inbound address" value={product.inbound_email}
            note="Mail to this address becomes a ticket in the inbox; replies from the inbox go back by email, in the same thread." />
          <p class="muted small">
            To use your own support address (support@yourcompany.com), forward its mail to the inbound address: in Google Workspace or
            Microsoft 365, add a forwarding rule on that mailbox; or point your domain's MX record at this server. Mail providers that
            forward by HTTP post the raw message to <code>/api/v1/inbound/email</code>.
          </p>
        </>
      ) : (
        <p class="muted">Email is not set up on this server: its administrator sets <code>LOOPDESK_INBOUND_DOMAIN</code> to give each product an inbound address.</p>
      )}
    </section>
  );
}
