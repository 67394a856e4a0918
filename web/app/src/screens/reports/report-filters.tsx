// The Reports screen's window and filters, each written to the URL at once (a tag when Enter is
// pressed). Custom dates start from the window shown, so switching keeps the days on screen.
import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../../session.js';
import { Checkbox, Select, TextField } from '../../ui/form.js';
import { CONVERSATION_CHANNELS, CONVERSATION_TYPES, entries } from '../../ui/labels.js';
import { DEFAULT_RANGE, RANGES, type WindowOrError } from './report-query.js';

const SOURCES: [string, string][] = [['', 'Any source'], ...(['chat', 'form', 'email'] as const).map((source): [string, string] => [source, CONVERSATION_CHANNELS[source]])];

export interface ReportFiltersProps {
  query: URLSearchParams;
  period: WindowOrError;
  setQuery: (changes: Record<string, string | null>) => void;
}

export function ReportFilters({ query, period, setQuery }: ReportFiltersProps) {
  const { products, members } = useSession();
  const [tag, setTag] = useState(query.get('tag') ?? '');
  useEffect(() => setTag(query.get('tag') ?? ''), [query.get('tag')]);
  const custom = query.has('from') || query.has('to');
  const chooseRange = (range: string) => {
    if (range !== 'custom') return setQuery({ range: range === DEFAULT_RANGE ? null : range, from: null, to: null });
    if ('error' in period) return;
    setQuery({ range: null, from: period.fromDate, to: period.toDate });
  };
  return (
    <div class="report-filters" role="group" aria-label="Report filters">
      <Select label="Window" value={custom ? 'custom' : (query.get('range') ?? DEFAULT_RANGE)} options={RANGES} onChange={chooseRange} />
      {custom && (
        <>
          <TextField type="date" label="From" value={query.get('from') ?? ''} onInput={(event) => setQuery({ from: event.currentTarget.value })} />
          <TextField type="date" label="To" value={query.get('to') ?? ''} onInput={(event) => setQuery({ to: event.currentTarget.value })} />
        </>
      )}
      {products.length > 1 && (
        <Select label="Product" value={query.get('product_id') ?? ''} options={[['', 'All products'], ...products.map((p): [string, string] => [p.id, p.name])]}
          onChange={(product_id) => setQuery({ product_id })} />
      )}
      <Select label="Assignee" value={query.get('assignee_id') ?? ''}
        options={[['', 'Anyone'], ['me', 'Me'], ['none', 'Unassigned'], ...members.map((m): [string, string] => [m.id, m.display_name ?? 'Unnamed member'])]}
        onChange={(assignee_id) => setQuery({ assignee_id })} />
      <form class="report-tag" onSubmit={(event) => { event.preventDefault(); setQuery({ tag: tag.trim() }); }}>
        <TextField label="Tag" value={tag} hint="Enter to apply" onInput={(event) => setTag(event.currentTarget.value)} />
      </form>
      <Select label="Type" value={query.get('type') ?? ''} options={[['', 'Any type'], ...entries(CONVERSATION_TYPES)]} onChange={(type) => setQuery({ type })} />
      <Select label="Source" value={query.get('source') ?? ''} options={SOURCES} onChange={(source) => setQuery({ source })} />
      <Checkbox label="Business hours" checked={query.get('business_hours') === 'true'} hint="Count only open time"
        onChange={(on) => setQuery({ business_hours: on ? 'true' : null })} />
    </div>
  );
}
