// ldk reports summary: the figures of a window (the server's docs/reports.md), as a table.
import type { Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Query, Schemas } from '../api.js';
import { paint, table } from '../output.js';
import { productIdOf } from '../resolve.js';

type Distribution = Schemas['ReportDistribution'];

interface SummaryOptions {
  from?: string;
  to?: string;
  product?: string;
  assignee?: string;
  tag?: string;
  type?: string;
  source?: string;
  businessHours?: true;
}

/** A duration as a person reads it: 45s, 12m, 3h 05m, 2d 4h. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

const percent = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)}%`);

async function summary(api: Api, options: SummaryOptions): Promise<HumanOutput> {
  const query: Query<'getReportSummary'> = {
    from: options.from, to: options.to, assignee_id: options.assignee, tag: options.tag, type: options.type, source: options.source,
    product_id: options.product === undefined ? undefined : await productIdOf(api, options.product),
    business_hours: options.businessHours,
  };
  const { data } = await api.call(api.client.GET('/api/v1/reports/summary', { params: { query } }));
  return () => {
    const durations: [string, Distribution][] = [['first response', data.first_response], ['next response', data.next_response], ['resolution', data.resolution]];
    const times = table(durations, [
      { header: 'DURATION', value: ([name]) => name },
      { header: 'COUNT', value: ([, d]) => String(d.count) },
      { header: 'MEDIAN', value: ([, d]) => duration(d.median_seconds) },
      { header: 'P90', value: ([, d]) => duration(d.p90_seconds) },
      { header: 'AVERAGE', value: ([, d]) => duration(d.average_seconds) },
    ]);
    const volume = table([
      ['conversations created', String(data.conversations_created)],
      ['conversations resolved', String(data.conversations_resolved)],
      ['messages received', String(data.messages_received)],
      ['replies sent', String(data.messages_sent)],
      ['CSAT', `${percent(data.csat.score)} positive of ${data.csat.responses} ratings`],
      ['SLA hit rate', `${percent(data.sla.hit_rate)} (${data.sla.hit} hit, ${data.sla.missed} missed of ${data.sla.applied} targets)`],
      ['self-served visitors', `${data.self_service.self_served} (${data.self_service.conversations_after_article} wrote after an article; ` +
        `${data.self_service.searches} searches, ${data.self_service.articles_viewed} article views)`],
    ], [{ header: 'FIGURE', value: ([name]) => name }, { header: 'VALUE', value: ([, value]) => value, shrinks: true }]);
    const window = paint('dim', `${options.from ?? '7 days ago'} → ${options.to ?? 'now'}${options.businessHours ? ', in business hours' : ''}`);
    return `${volume}\n\n${times}\n${window}`;
  };
}

export function defineReportCommands(program: Command): void {
  const reports = program.command('reports').description('the team\'s figures: volume, response and resolution times, CSAT, SLAs');
  reports.command('summary').description('the figures of a window (default the last 7 days); medians and p90 are exact')
    .option('--from <instant>', 'start of the window, an RFC 3339 instant (default 7 days before --to)')
    .option('--to <instant>', 'end of the window (default now)')
    .option('--product <product>', 'only this product (slug or UUID)')
    .option('--assignee <member>', 'only conversations assigned to these members: ids, me or none (comma-separated)')
    .option('--tag <tags>', 'only conversations with any of these tags (comma-separated)')
    .option('--type <types>', 'only these types (comma-separated)')
    .option('--source <sources>', 'only these sources: chat, form, email (comma-separated)')
    .option('--business-hours', 'count durations in business hours (the SLA\'s calendar, else the server\'s default calendar)')
    .action(withApi(summary));
}
