import { PageHeader } from '../../ui/page.js';

export function Releases({ path }: { path: string }) {
  return <div class="page"><PageHeader title="Releases" description={path} /></div>;
}
