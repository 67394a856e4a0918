// /app/invite/{token}: the one-time link an invitation gives. The person picks a name and a
// password (and an email, for the first start's owner link, which names none) and is signed in.
import { useState } from 'preact/hooks';
import { ApiError, api, ok } from '../../api/client.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { ErrorState, Loading } from '../../ui/page.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';
import { AuthLayout } from './auth-layout.js';

export function AcceptInvitation({ token, accepted }: { token: string; accepted: () => void }) {
  const path = { params: { path: { token } } };
  const invitation = useResource(() => ok(api.GET('/auth/invitations/{token}', path)).then((answer) => answer.data), [token]);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  if (!invitation.data) {
    if (!invitation.error) return <AuthLayout title="Join your team"><Loading /></AuthLayout>;
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
  const { email: invitedEmail, workspace_name: workspace, role } = invitation.data;
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await ok(api.POST('/auth/invitations/{token}', { ...path, body: { name: name.trim(), password, ...(invitedEmail === null && { email: email.trim() }) } }));
      accepted();
    });
  };
  const { fields } = action;
  return (
    <AuthLayout
      title={`Join ${workspace}`}
      subtitle={invitedEmail ? <>You were invited as <strong>{role}</strong> with <strong>{invitedEmail}</strong>.</> : <>You are the <strong>{role}</strong> of this new workspace. Choose how you will sign in.</>}
    >
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        {invitedEmail === null && (
          <TextField label="Email" type="email" autocomplete="username" required value={email} error={fields.email} onInput={(event) => setEmail(event.currentTarget.value)} />
        )}
        <TextField label="Name" autocomplete="name" required value={name} error={fields.name} onInput={(event) => setName(event.currentTarget.value)} />
        <TextField label="Password" type="password" autocomplete="new-password" required minLength={10} maxLength={200}
          hint="10 to 200 characters. Already have a Loopdesk account? Use its password." value={password} error={fields.password}
          onInput={(event) => setPassword(event.currentTarget.value)} />
        <Button type="submit" variant="primary" busy={action.busy} class="button-block">Join {workspace}</Button>
      </form>
    </AuthLayout>
  );
}
