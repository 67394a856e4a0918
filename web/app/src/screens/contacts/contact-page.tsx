// A contact on a page of its own (where search leads): the contact's panel, open.
import { navigate } from '../../router.js';
import { PageHeader, useTitle } from '../../ui/page.js';
import { ContactPanel } from './contact-panel.js';

export function ContactPage({ id }: { id: string }) {
  useTitle('Contact');
  return (
    <div class="page">
      <PageHeader title="Contact" />
      <ContactPanel contactId={id} open erased={() => navigate('/inbox')} />
    </div>
  );
}
