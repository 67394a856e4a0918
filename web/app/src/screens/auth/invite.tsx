// /app/invite/{token}: the one-time link an invitation gives. The person picks a name and a
// password (POST /auth/invitations/{token}) and is signed in.
import { useState } from 'preact/hooks';
import { ApiError, getJson, postJson } from '../../api/client.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { ErrorState, Loading } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';
import { AuthLayout } from './auth-layout.js';

interface Invitation {
  email: string;
  workspace_name: string;
  role: string;
}

export function AcceptInvitation({ token, accepted }: { token: string; accepted: () => void }) {
  const path = `/auth/invitations/${encodeURIComponent(token)}`;
  const invitation = useResource(() => getJson<{ data: Invitation }>(path), [path]);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  if (invitation.loading && !invitation.data) return <AuthLayout title="Join your team"><Loading /></AuthLayout>;
  if (!invitation.data) {
    const gone = invitation.error instanceof ApiError && invitation.error.status === 404;
    return (
      <AuthLayout title="Join your team">
        {gone ? (
          <div class="alert alert-error" role="alert">This invitation link was already used, has expired, or does not exist. Ask for a new one.</div>
        ) : <ErrorState error={invitation.error} retry={invitation.reload} />}
        <p><a href="/app">Go to sign-in</a></p>
      </AuthLayout>
    );
  }
  const { email, workspace_name: workspace, role } = invitation.data.data;
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await postJson(path, { name: name.trim(), password });
      accepted();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }));
      setBusy(false);
    }
  };
  const fields = error?.fields ?? {};
  return (
    <AuthLayout title={`Join ${workspace}`} subtitle={<>You were invited as <strong>{role}</strong> with <strong>{email}</strong>.</>}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={error && !Object.keys(fields).length ? error.message : null} />
        <TextField label="Name" autocomplete="name" required value={name} error={fields.name} onInput={(event) => setName(event.currentTarget.value)} />
        <TextField label="Password" type="password" autocomplete="new-password" required minLength={10} maxLength={200}
          hint="10 to 200 characters." value={password} error={fields.password} onInput={(event) => setPassword(event.currentTarget.value)} />
        <Button type="submit" variant="primary" busy={busy} class="button-block">Join {workspace}</Button>
      </form>
    </AuthLayout>
  );
}
