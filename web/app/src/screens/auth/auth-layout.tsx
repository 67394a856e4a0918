import type { ComponentChildren } from 'preact';
import { useTitle } from '../../ui/page.js';

/** The centred card the sign-in and invitation pages share. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: ComponentChildren; children: ComponentChildren }) {
  useTitle(title);
  return (
    <main class="auth-page">
      <div class="auth-card">
        <div class="brand brand-large" aria-hidden="true"><span class="brand-mark" />Loopdesk</div>
        <h1>{title}</h1>
        {subtitle && <p class="muted">{subtitle}</p>}
        {children}
      </div>
    </main>
  );
}
