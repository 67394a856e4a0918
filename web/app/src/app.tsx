// The app's frame: the invitation page and sign-in for people without a session, and for the
// signed-in the shell (navigation, who is signed in) around the screen the path names.
import { useEffect } from 'preact/hooks';
import { ContactPage } from './screens/contacts/contact-page.js';
import { HelpCenter } from './screens/help-center/help-center.js';
import { Inbox } from './screens/inbox/inbox.js';
import { Board } from './screens/issues/board.js';
import { Releases } from './screens/releases/releases.js';
import { LazyReports } from './screens/reports/lazy-reports.js';
import { Settings } from './screens/settings/settings.js';
import { TriageQueue } from './screens/triage/triage-queue.js';
import { AcceptInvitation } from './screens/auth/invite.js';
import { SignIn } from './screens/auth/sign-in.js';
import { match, navigate, useLocation } from './router.js';
import { SessionGate } from './session.js';
import { Shell } from './shell.js';
import { EmptyState, ErrorState, Loading } from './ui/page.js';
import { Toasts } from './ui/toast.js';

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function Screen({ path }: { path: string }) {
  // The sign-in page's address (where a refused single sign-on returns) leads to the inbox once signed in.
  if (path === '/' || path === '/sign-in') return <Redirect to="/inbox" />;
  const section = path.split('/')[1];
  if (section === 'inbox') return <Inbox path={path} />;
  if (section === 'triage') return <TriageQueue />;
  if (section === 'issues') return <Board path={path} />;
  if (section === 'releases') return <Releases path={path} />;
  if (section === 'help-center') return <HelpCenter path={path} />;
  if (section === 'reports') return <LazyReports />;
  if (section === 'settings') return <Settings path={path} />;
  const contact = match('/contacts/:id', path);
  if (contact) return <ContactPage id={contact.id} />;
  return (
    <EmptyState title="Nothing here">
      This page does not exist. <a href="/app/inbox">Back to the inbox</a>
    </EmptyState>
  );
}

export function App() {
  const { path } = useLocation();
  const invitation = match('/invite/:token', path);
  return (
    <>
      {invitation ? (
        <AcceptInvitation token={invitation.token} accepted={() => { location.assign('/app/inbox'); }} />
      ) : (
        <SessionGate
          loading={<div class="center-screen"><Loading /></div>}
          failed={(error, retry) => <div class="center-screen"><ErrorState error={error} retry={retry} /></div>}
          signIn={({ signedIn }) => <SignIn signedIn={signedIn} />}
        >
          <Shell path={path}><Screen path={path} /></Shell>
        </SessionGate>
      )}
      <Toasts />
    </>
  );
}

