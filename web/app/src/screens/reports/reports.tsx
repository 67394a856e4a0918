// Reports: how fast the team answered and whether it kept its promises, over a window and the
// conversations' filters kept in the URL (docs/app.md, "Reports"; the figures' definitions in
// docs/reports.md). Headline figures from /reports/summary, each over time from
// /reports/timeseries, a table per member from /reports/agents, and the CSV of the same query.
import './reports.css';
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { navigate, useLocation, withQuery } from '../../router.js';
import { useSession } from '../../session.js';
import { EmptyState, ErrorState, Loading, PageHeader } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';
import { ReportChart } from './report-chart.js';
import { ReportFilters } from './report-filters.js';
import { countText, NO_DATA, shareText, spanText } from './report-format.js';
import { apiQuery, reportWindow, type ReportWindow } from './report-query.js';

type Metric = 'conversations_created' | 'conversations_resolved' | 'first_response_median' | 'resolution_median' | 'csat_score' | 'sla_hit_rate';
type Summary = Schemas['ReportSummary'];

interface Figure {
  title: string;
  metric: Metric;
  value: (summary: Summary) => string;
  detail: (summary: Summary) => string;
  format: (value: number) => string;
  whole?: boolean;
  top: number;
}

const plural = (n: number, one: string, many: string) => `${countText(n)} ${n === 1 ? one : many}`;

/** The headline figures, in the order a team lead reads them, each with its series. */
const FIGURES: Figure[] = [
  { title: 'Conversations created', metric: 'conversations_created', value: (s) => countText(s.conversations_created), detail: (s) => `${plural(s.messages_received, 'message', 'messages')} received`, format: countText, whole: true, top: 1 },
  { title: 'Conversations resolved', metric: 'conversations_resolved', value: (s) => countText(s.conversations_resolved), detail: (s) => `${plural(s.messages_sent, 'reply', 'replies')} sent`, format: countText, whole: true, top: 1 },
  { title: 'First response', metric: 'first_response_median', value: (s) => spanText(s.first_response.median_seconds), detail: (s) => `median · p90 ${spanText(s.first_response.p90_seconds)} · ${plural(s.first_response.count, 'response', 'responses')}`, format: spanText, top: 60 },
  { title: 'Resolution', metric: 'resolution_median', value: (s) => spanText(s.resolution.median_seconds), detail: (s) => `median · p90 ${spanText(s.resolution.p90_seconds)} · ${plural(s.resolution.count, 'resolution', 'resolutions')}`, format: spanText, top: 60 },
  { title: 'CSAT', metric: 'csat_score', value: (s) => shareText(s.csat.score), detail: (s) => `positive · ${plural(s.csat.responses, 'rating', 'ratings')}`, format: shareText, top: 1 },
  { title: 'SLA hit rate', metric: 'sla_hit_rate', value: (s) => shareText(s.sla.hit_rate), detail: (s) => `${countText(s.sla.hit)} hit · ${countText(s.sla.missed)} missed`, format: shareText, top: 1 },
];

async function loadReports(period: ReportWindow, query: Record<string, string>) {
  // business_hours is a boolean in the typed client; the URL holds it as text.
  const filters = { ...query, business_hours: query.business_hours === 'true' ? true : undefined };
  const [summary, agents, ...series] = await Promise.all([
    ok(api.GET('/api/v1/reports/summary', { params: { query: filters } })),
    ok(api.GET('/api/v1/reports/agents', { params: { query: filters } })),
    ...FIGURES.map((figure) => ok(api.GET('/api/v1/reports/timeseries', {
      params: { query: { ...filters, metric: figure.metric, interval: period.interval, timezone: period.timeZone } },
    }))),
  ]);
  return { summary: summary.data, agents: agents.data, series: series.map((answer) => answer.data) };
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function Reports() {
  const { query } = useLocation();
  const session = useSession();
  const timeZone = session.me.member?.time_zone ?? browserZone();
  const period = reportWindow(query, timeZone);
  const params = 'error' in period ? null : apiQuery(period, query);
  const search = params ? new URLSearchParams(params).toString() : '';
  const reports = useResource(() => (params && !('error' in period) ? loadReports(period, params) : Promise.resolve(null)), [search, timeZone]);
  const setQuery = (changes: Record<string, string | null>) => navigate(withQuery('/reports', query, changes), { replace: true });
  const shown = 'error' in period ? null : `${dateLabel(period.fromDate)} – ${dateLabel(period.toDate)} · ${period.timeZone}`;

  return (
    <div class="page reports">
      <PageHeader
        title="Reports"
        description={shown ?? 'How fast the team answered, and whether it kept its promises.'}
        actions={params && <a class="button button-secondary" href={`/api/v1/reports/conversations.csv?${search}`} download="conversations.csv">Download CSV</a>}
      />
      <ReportFilters query={query} period={period} setQuery={setQuery} />
      {'error' in period ? <div class="alert alert-error" role="alert">{period.error}</div>
        : reports.error ? <ErrorState error={reports.error} retry={() => void reports.reload()} />
        : !reports.data ? <Loading label="Loading the reports…" />
        : (
          <>
            <div class="report-grid">
              {FIGURES.map((figure, index) => (
                <FigureCard key={figure.metric} title={figure.title} value={figure.value(reports.data!.summary)} detail={figure.detail(reports.data!.summary)}>
                  <ReportChart title={figure.title} points={reports.data!.series[index]} interval={period.interval} timeZone={period.timeZone} format={figure.format} whole={figure.whole} top={figure.top} />
                </FigureCard>
              ))}
            </div>
            <AgentsTable agents={reports.data.agents} />
          </>
        )}
    </div>
  );
}

const dateLabel = (date: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

function FigureCard({ title, value, detail, children }: { title: string; value: string; detail: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="card report-card" aria-labelledby={id}>
      <h2 id={id} class="report-title">{title}</h2>
      <p class={`report-value ${value === NO_DATA ? 'report-none' : ''}`}>{value}</p>
      <p class="report-detail muted">{detail}</p>
      {children}
    </section>
  );
}

function AgentsTable({ agents }: { agents: Schemas['AgentReport'][] }) {
  return (
    <section class="stack report-agents" aria-labelledby="report-agents-heading">
      <h2 id="report-agents-heading">By member</h2>
      {agents.length === 0 ? <div class="card"><EmptyState title="No members" /></div> : (
        <div class="card table-wrap">
          <table class="table table-stack" aria-label="Members">
            <thead>
              <tr>
                <th scope="col">Member</th><th scope="col">Replies sent</th><th scope="col">Resolved</th>
                <th scope="col">First responses</th><th scope="col">First response median</th><th scope="col">First response p90</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((agent) => (
                <tr key={agent.member_id}>
                  <td><strong>{agent.display_name ?? 'Unnamed member'}</strong></td>
                  <td data-label="Replies sent">{countText(agent.replies_sent)}</td>
                  <td data-label="Resolved">{countText(agent.conversations_resolved)}</td>
                  <td data-label="First responses">{countText(agent.first_response.count)}</td>
                  <td data-label="First response median">{spanText(agent.first_response.median_seconds)}</td>
                  <td data-label="First response p90">{spanText(agent.first_response.p90_seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
