// Sign-in with email and password (POST /auth/sign-in sets the session cookie), or with the
// workspace's single sign-on when it has it (sso-sign-in.tsx).
import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client.js';
import { useLocation } from '../../router.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { useAction } from '../../ui/use-action.js';
import { AuthLayout } from './auth-layout.js';
import { SsoSignInLink, ssoErrorMessage } from './sso-sign-in.js';

export function SignIn({ signedIn }: { signedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const { query } = useLocation();
  const workspaceId = query.get('workspace_id');
  const ssoError = ssoErrorMessage(query.get('error'));

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await ok(api.POST('/auth/sign-in', { body: { email: email.trim(), password, ...(workspaceId ? { workspace_id: workspaceId } : {}) } }));
      signedIn();
    });
  };
  const { fields } = action;
  return (
    <AuthLayout title="Sign in" subtitle="Welcome back. Sign in to your team's inbox.">
      <FormError message={ssoError} />
      <SsoSignInLink workspaceId={workspaceId} />
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Email" type="email" autocomplete="username" required value={email} error={fields.email}
          onInput={(event) => setEmail(event.currentTarget.value)} />
        <TextField label="Password" type="password" autocomplete="current-password" required value={password} error={fields.password}
          onInput={(event) => setPassword(event.currentTarget.value)} />
        <Button type="submit" variant="primary" busy={action.busy} class="button-block">Sign in</Button>
      </form>
      <p class="muted small">No account yet? Ask an owner or admin of your workspace for an invitation.</p>
    </AuthLayout>
  );
}
