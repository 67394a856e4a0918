// The bench's output: bench/results/latest.json for tooling and Markdown tables for people.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import type { BenchDb } from './args.js';
import type { SeedSummary } from './seed.js';

export interface Ceiling {
  rps: number;
  p50_ms: number;
  p99_ms: number;
}

/** One row of latest.json; a skipped scenario has null figures and says why. */
export interface ScenarioResult {
  name: string;
  scale: string;
  rps: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  ratio: number | null;
  errors: number | null;
  peak_rss_mb: number | null;
  /** The server's CPU time (user + system) per 2xx answer over the measured window; with webhooks, from the warm-up on until the scenario's deliveries arrived. */
  server_cpu_us_per_request?: number;
  /** The floor's req/s for the same requests on the same database (bench/floor-server.ts); null when it does not answer them. */
  floor_rps: number | null;
  /** rps / floor_rps: what Loopdesk's code costs over doing the same work by hand (1.0: nothing). */
  floor_ratio: number | null;
  /** Why the scenario has no floor (the floor does not answer it). */
  floor_skipped?: string;
  /** With --webhooks, for a write scenario: one delivery per event. */
  deliveries?: WriteDeliveries;
  skipped?: string;
}

export interface WriteDeliveries {
  /** Events recorded: the 2xx writes, warm-up included. */
  expected: number;
  /** Deliveries that arrived while the load ran. */
  in_window: number;
  /** Seconds from the end of the load to the last of them (0: none lagged; nothing waited for when some never came). */
  drain_seconds: number;
  /** The bench process's CPU (the receiver, mostly) per delivery. */
  receiver_cpu_us_per_delivery: number;
}

export interface BenchReport {
  machine: string;
  date: string;
  db: BenchDb;
  webhooks: boolean;
  ceiling: Ceiling;
  scenarios: ScenarioResult[];
}

export function describeMachine(): string {
  const cores = cpus();
  return `${cores[0]?.model.trim() ?? 'unknown CPU'} × ${cores.length}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${type()} ${release()}, Node ${process.version}`;
}

export function writeReport(dir: string, report: BenchReport): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'latest.json');
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}

const table = (header: string[], rows: (string | number)[][]): string =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

const show = (value: number | null, digits = 0): string => (value === null ? '–' : value.toFixed(digits));

/** Read/write rate at the largest scale over the same scenario at the smallest: 1.0 is flat. */
function growthRows(scenarios: ScenarioResult[], scales: string[]): (string | number)[][] {
  if (scales.length < 2) return [];
  const [smallest, largest] = [scales[0], scales[scales.length - 1]];
  const rate = (name: string, scale: string) => scenarios.find((s) => s.name === name && s.scale === scale)?.rps ?? null;
  return [...new Set(scenarios.map((s) => s.name))].flatMap((name) => {
    const [small, large] = [rate(name, smallest), rate(name, largest)];
    return small && large ? [[name, show(small), show(large), (large / small).toFixed(2)]] : [];
  });
}

export function markdown(report: BenchReport, seeding: { scale: string; summary: SeedSummary }[]): string {
  const { ceiling, scenarios } = report;
  const scales = seeding.map((s) => s.scale);
  const growth = growthRows(scenarios, scales);
  return [
    `## Loopdesk bench: ${report.db}${report.webhooks ? ', webhooks' : ''}, ${report.date}`,
    '',
    `Machine: ${report.machine}`,
    '',
    `Ceiling (bare Fastify, same settings): ${show(ceiling.rps)} req/s, p50 ${ceiling.p50_ms} ms, p99 ${ceiling.p99_ms} ms`,
    '',
    table(
      ['scenario', 'scale', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'floor req/s', 'of floor', 'errors', 'peak RSS MB', 'server CPU µs/req'],
      scenarios.map((s) =>
        s.skipped
          ? [s.name, s.scale, `skipped: ${s.skipped}`, '', '', '', '', '', '', '', '']
          : [
            s.name, s.scale, show(s.rps), show(s.p50_ms, 1), show(s.p99_ms, 1), show(s.ratio, 2), show(s.floor_rps), show(s.floor_ratio, 2),
            show(s.errors), show(s.peak_rss_mb), show(s.server_cpu_us_per_request ?? null),
          ],
      ),
    ),
    ...(growth.length
      ? ['', `Cost growth (req/s at ${scales[scales.length - 1]} over ${scales[0]}):`, '', table(['scenario', scales[0], scales[scales.length - 1], 'ratio'], growth)]
      : []),
    '',
    'Seeding (through the services):',
    '',
    table(
      ['scale', 'issues', 'conversations', 'messages', 'links', 'releases', 'seconds'],
      seeding.map(({ scale, summary: s }) => [scale, s.issues, s.conversations, s.messages, s.links, s.releases, s.seconds.toFixed(1)]),
    ),
    '',
  ].join('\n');
}
