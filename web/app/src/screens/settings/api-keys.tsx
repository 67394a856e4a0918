import { EmptyState } from '../../ui/page.js';

export function ApiKeys() {
  return <EmptyState title="API keys">Keys are issued with the admin CLI for now.</EmptyState>;
}
