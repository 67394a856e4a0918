// The signed-in frame: the main navigation (a sidebar on wide screens, a tab bar on phones), who
// is signed in (with their availability) and sign-out, search (`/` anywhere), the notification bell, and the screen.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Link } from './router.js';
import { SearchDialog } from './screens/search/search-dialog.js';
import { useSession } from './session.js';
import { AvailabilitySwitch } from './ui/availability-switch.js';
import { Avatar } from './ui/badges.js';
import { Icon, type IconName } from './ui/icons.js';
import { NotificationBell } from './ui/notification-bell.js';
import { useShortcut } from './ui/shortcuts.js';

const SECTIONS: { href: string; label: string; icon: IconName; settings?: boolean }[] = [
  { href: '/inbox', label: 'Inbox', icon: 'inbox' },
  { href: '/triage', label: 'Triage', icon: 'triage' },
  { href: '/issues', label: 'Issues', icon: 'issues' },
  { href: '/releases', label: 'Releases', icon: 'releases' },
  { href: '/help-center', label: 'Help center', icon: 'help' },
  { href: '/reports', label: 'Reports', icon: 'reports' },
  { href: '/settings', label: 'Settings', icon: 'settings', settings: true },
];

export function Shell({ path, children }: { path: string; children: ComponentChildren }) {
  const session = useSession();
  const member = session.me.member;
  const sections = SECTIONS.filter((section) => !section.settings || session.canManageSettings);
  const [searching, setSearching] = useState(false);
  useShortcut('/', () => setSearching(true));
  return (
    <div class="shell">
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="sidebar">
        <div class="brand"><span class="brand-mark" aria-hidden="true" />Loopdesk</div>
        {member && <NotificationBell memberId={member.id} />}
        <button type="button" class="search-button" onClick={() => setSearching(true)} title="Search (/)">
          <Icon name="search" /><span>Search</span><kbd aria-hidden="true">/</kbd>
        </button>
        <nav aria-label="Main" class="nav">
          <ul>
            {sections.map((section) => {
              const current = path === section.href || path.startsWith(`${section.href}/`);
              return (
                <li key={section.href}>
                  <Link href={section.href} class="nav-link" aria-current={current ? 'page' : undefined}>
                    <Icon name={section.icon} /><span>{section.label}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div class="who">
          <Avatar name={member?.display_name} />
          <div class="who-text">
            <span class="who-name">{member?.display_name ?? 'Integration'}</span>
            <span class="who-role">{member?.role ?? 'no member'}</span>
          </div>
          {member && <AvailabilitySwitch initial={member.availability} />}
          <button type="button" class="icon-button" onClick={() => void session.signOut()} title="Sign out">
            <Icon name="signOut" /><span class="visually-hidden">Sign out</span>
          </button>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>{children}</main>
      {searching && <SearchDialog close={() => setSearching(false)} />}
    </div>
  );
}
