// Settings → Service levels: the SLA policies (in the order they are tried) and the calendars of
// business hours they are measured in. Both lists load together; a calendar's change reloads the
// policies too, since they show its name.
import { api, ok } from '../../api/client.js';
import { useResource } from '../../use-resource.js';
import { Calendars } from './calendars.js';
import { SlaPolicies } from './sla-policies.js';

/** One page holds them all: a team has a handful of each (the API pages at 200). */
const LIMIT = 200;

export function ServiceLevels() {
  const calendars = useResource(() => ok(api.GET('/api/v1/calendars', { params: { query: { limit: LIMIT } } })).then((answer) => answer.data), []);
  const policies = useResource(() => ok(api.GET('/api/v1/sla-policies', { params: { query: { limit: LIMIT } } })).then((answer) => answer.data), []);
  return (
    <div class="stack">
      <SlaPolicies policies={policies} calendars={calendars.data ?? []} />
      <Calendars calendars={calendars} changed={() => void policies.reload()} />
    </div>
  );
}
