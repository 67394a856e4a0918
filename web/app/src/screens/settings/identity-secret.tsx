// A product's identity secret: created or rotated on request, shown once, with how the host site
// signs its visitors with it (docs/widget.md, "Identity: signing visitors in").
import { useState } from 'preact/hooks';
import { api, describeError, ok } from '../../api/client.js';
import { Button } from '../../ui/form.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';

/** The Node example of docs/widget.md, with this product's widget key filled in. */
const signingExample = (widgetKey: string) => `import { createHmac } from 'node:crypto';

const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

// On your server, for the signed-in user; secret is the identity secret.
export function loopdeskIdentityToken(user, secret) {
  const header = part({ alg: 'HS256', typ: 'JWT' });
  const claims = part({ sub: String(user.id), aud: '${widgetKey}', exp: Math.floor(Date.now() / 1000) + 3600, email: user.email, name: user.name });
  const signature = createHmac('sha256', secret).update(\`\${header}.\${claims}\`).digest('base64url');
  return \`\${header}.\${claims}.\${signature}\`;
}`;

export function IdentitySecret({ productId, widgetKey }: { productId: string; widgetKey: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The product does not say whether it has a secret yet, so every press asks: a rotation ends the
  // verified widget sessions the old secret vouched for.
  const rotate = async () => {
    if (!confirm('Create a new identity secret? If the product already has one, it stops verifying at once and the verified widget sessions it signed in end.')) return;
    setBusy(true);
    try {
      setSecret((await ok(api.POST('/api/v1/products/{id}/identity-secret', { params: { path: { id: productId } } }))).data.identity_secret);
      announce('New identity secret created');
    } catch (failure) {
      announce(describeError(failure), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card card-body stack" aria-labelledby="identity-heading">
      <div class="row">
        <h2 id="identity-heading">Identity secret</h2>
        <span class="spacer" />
        <Button small busy={busy} onClick={() => void rotate()}>Create or rotate secret</Button>
      </div>
      <p class="muted">
        Your site's server signs its signed-in users with this secret, so the widget knows who writes in: their
        conversations show a Verified contact. Keep it on your server, never in a page.
      </p>
      {secret && <CopyValue label="New identity secret" value={secret} note="Copy it now: it is shown only once." />}
      <details class="stack">
        <summary>How to sign a visitor (Node, no library)</summary>
        <CopyValue label="Signing example" multiline value={signingExample(widgetKey)}
          note="Pass the token to the page as data-identity-token on the embed script; any JWT library signing HS256 does the same (docs/widget.md)." />
      </details>
    </section>
  );
}
