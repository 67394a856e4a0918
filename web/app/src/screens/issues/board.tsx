import { PageHeader } from '../../ui/page.js';

export function Board({ path }: { path: string }) {
  return <div class="page"><PageHeader title="Issues" description={path} /></div>;
}
