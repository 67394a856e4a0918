// Single sign-on (docs/sso.md): the workspace's OpenID Connect provider. Saving is PUT /api/v1/sso,
// which reads the issuer's discovery document first and refuses the form (under "Issuer") when it
// does not check out; the redirect URI to register at the provider is shown to copy. The client
// secret is write-only: left empty, the stored one is kept.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, describeError, ok, type Schemas } from '../../api/client.js';
import { Button, Checkbox, FormError, Select, TextField } from '../../ui/form.js';
import { ErrorState, Loading } from '../../ui/page.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

type Settings = Schemas['SsoSettings'];
type SsoRole = Settings['default_role'];
const ROLES: [SsoRole, string][] = [['agent', 'Agent'], ['admin', 'Admin']];

/** The settings, or null when none are set up (404). */
async function loadSettings(): Promise<Settings | null> {
  try {
    return (await ok(api.GET('/api/v1/sso'))).data;
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404) return null;
    throw failure;
  }
}

const splitDomains = (text: string) => text.split(/[\s,]+/).map((domain) => domain.trim()).filter(Boolean);

export function SingleSignOn() {
  const settings = useResource(loadSettings, []);
  return (
    <section aria-labelledby="sso-heading" class="stack">
      <h2 id="sso-heading">Single sign-on</h2>
      <p class="muted">
        People sign in with your identity provider (Keycloak, Authentik, Google Workspace, Microsoft Entra, Okta or any other
        OpenID Connect provider). Register Loopdesk there as a web application with the redirect URI below.
      </p>
      {settings.error ? <ErrorState error={settings.error} retry={settings.reload} /> : null}
      {settings.data === undefined ? (settings.error ? null : <Loading />) : <SsoForm current={settings.data} saved={(next) => settings.set(next)} removed={() => settings.set(null)} />}
    </section>
  );
}

function SsoForm({ current, saved, removed }: { current: Settings | null; saved: (settings: Settings) => void; removed: () => void }) {
  const [issuer, setIssuer] = useState(current?.issuer ?? '');
  const [clientId, setClientId] = useState(current?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(current?.allowed_domains.join(', ') ?? '');
  const [role, setRole] = useState<SsoRole>(current?.default_role ?? 'agent');
  const [enforce, setEnforce] = useState(current?.enforce ?? false);
  const [redirectUri, setRedirectUri] = useState(current?.redirect_uri ?? `${location.origin}/auth/sso/callback`);
  const action = useAction();
  useEffect(() => setClientSecret(''), [current]);

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const body = {
        issuer: issuer.trim(), client_id: clientId.trim(), allowed_domains: splitDomains(domains), default_role: role, enforce,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
      };
      const answer = await ok(api.PUT('/api/v1/sso', { body }));
      setRedirectUri(answer.data.redirect_uri);
      saved(answer.data);
      announce('Single sign-on saved: the issuer\'s discovery document checked out');
    });
  };
  const remove = async () => {
    if (!confirm('Turn single sign-on off? Everyone signs in with a password again.')) return;
    try {
      await ok(api.DELETE('/api/v1/sso'));
      announce('Single sign-on turned off');
      removed();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  const { fields } = action;
  return (
    <div class="card card-body stack">
      <CopyValue label="Redirect URI" value={redirectUri} note="Register this at your provider as the client's redirect (callback) URI. Scopes: openid email profile." />
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Issuer" type="url" required value={issuer} error={fields.issuer} placeholder="https://auth.example.com/realms/support"
          hint="The provider's issuer URL; Loopdesk reads its /.well-known/openid-configuration before saving."
          onInput={(e) => setIssuer(e.currentTarget.value)} />
        <TextField label="Client ID" required value={clientId} error={fields.client_id} onInput={(e) => setClientId(e.currentTarget.value)} />
        <TextField label="Client secret" type="password" autocomplete="new-password" value={clientSecret} error={fields.client_secret}
          hint={current ? 'Stored and never shown. Leave empty to keep it.' : 'As your provider issued it for this client.'}
          onInput={(e) => setClientSecret(e.currentTarget.value)} />
        <TextField label="Allowed email domains" value={domains} error={fields.allowed_domains} placeholder="example.com, example.org"
          hint="People with a verified email in these domains sign in, and join with the default role. Empty: only existing members sign in."
          onInput={(e) => setDomains(e.currentTarget.value)} />
        <Select label="Default role" value={role} options={ROLES} error={fields.default_role} onChange={setRole} />
        <Checkbox label="Require single sign-on" checked={enforce} onChange={setEnforce}
          hint="Password sign-in stops for everyone but owners, who keep it to recover if the provider fails." />
        <div class="row">
          <Button type="submit" variant="primary" busy={action.busy}>Save</Button>
          <span class="spacer" />
          {current && <Button variant="danger" onClick={() => void remove()}>Turn off</Button>}
        </div>
      </form>
    </div>
  );
}
