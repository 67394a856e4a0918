// "Sign in with SSO" on the sign-in page (docs/sso.md): shown when the workspace (`?workspace_id=`,
// or the server's only one) has single sign-on, as a link to the start of the sign-in; and what
// each `?error=` the server sends a refused sign-in back with means.
import { api } from '../../api/client.js';
import { useResource } from '../../use-resource.js';

const SSO_ERRORS: Record<string, string> = {
  sso_not_configured: 'Single sign-on is not set up for this workspace. Sign in with your email and password.',
  sso_unavailable: 'Your identity provider could not be reached. Try again in a moment.',
  sso_cancelled: 'The sign-in was cancelled or refused at your identity provider.',
  sso_invalid_state: 'That sign-in expired or was already used. Start again.',
  sso_failed: 'Your identity provider\'s answer could not be verified. Start again; if it keeps happening, ask an admin to check the single sign-on settings.',
  sso_email_unverified: 'Your identity provider did not confirm a verified email address for you.',
  sso_domain_not_allowed: 'Your email address\'s domain may not sign in to this workspace.',
  sso_not_a_member: 'You are not a member of this workspace yet. Ask an owner or admin for an invitation.',
};

/** The message for a sign-in page's `?error=` code; null when there is none. */
export const ssoErrorMessage = (code: string | null): string | null =>
  code === null ? null : (SSO_ERRORS[code] ?? 'Single sign-on did not work. Start again, or sign in with your password.');

/** Where the workspace's single sign-on starts, or null when it has none. */
async function startUrlOf(workspaceId: string | null): Promise<string | null> {
  const { data } = await api.GET('/auth/sso', { params: { query: workspaceId ? { workspace_id: workspaceId } : {} } });
  return data?.data.start_url ?? null;
}

export function SsoSignInLink({ workspaceId }: { workspaceId: string | null }) {
  const startUrl = useResource(() => startUrlOf(workspaceId), [workspaceId]);
  if (!startUrl.data) return null;
  return (
    <>
      <a class="button button-secondary button-block" href={startUrl.data}>Sign in with SSO</a>
      <p class="auth-divider muted small"><span>or with your email</span></p>
    </>
  );
}
