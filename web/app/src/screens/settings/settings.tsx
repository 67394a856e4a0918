import { PageHeader } from '../../ui/page.js';

export function Settings({ path }: { path: string }) {
  return <div class="page"><PageHeader title="Settings" description={path} /></div>;
}
