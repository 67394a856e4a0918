// Writes bench/cpu-baseline.json, the server CPU per request that test/integration/bench-smoke.test.ts
// allows each scenario three times of, from the latest.json of one or more runs of
// `npm run bench -- --scale 10k --requests 250 --results DIR`: per scenario, the highest of the runs.
// Usage: node --import ./test/helpers/typescript-hooks.mjs bench/cpu-baseline.ts "<machine and its load>" DIR [DIR...]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchReport } from './report.js';

export const BASELINE_PATH = new URL('./cpu-baseline.json', import.meta.url);

export interface CpuBaseline {
  /** The settings the smoke runs the bench with, which the figures were measured at. */
  scale: string;
  /** Each load's measured requests (`--requests`), after as many of warm-up. */
  requests: number;
  /** Where and when: the machine, its load, the runs taken. */
  measured: string;
  /** µs of server CPU per 2xx answer, per scenario. */
  server_cpu_us_per_request: Record<string, number>;
}

export const readCpuBaseline = (): CpuBaseline => JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as CpuBaseline;

function main([measured, ...dirs]: string[]): void {
  if (!measured || dirs.length === 0) throw new Error('usage: node --import ./test/helpers/typescript-hooks.mjs bench/cpu-baseline.ts "<machine and its load>" DIR [DIR...]');
  const reports = dirs.map((dir) => JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as BenchReport);
  const { scale, requests } = readCpuBaseline();
  const highest: Record<string, number> = {};
  for (const { scenarios } of reports) {
    for (const result of scenarios) {
      if (result.scale !== scale) throw new Error(`${result.name} ran at ${result.scale}; the smoke runs at ${scale}`);
      if (result.server_cpu_us_per_request === undefined) throw new Error(`${result.name}: no CPU figure (${result.skipped ?? 'failed'})`);
      highest[result.name] = Math.max(highest[result.name] ?? 0, result.server_cpu_us_per_request);
    }
  }
  const baseline: CpuBaseline = {
    scale, requests, measured: `${measured}; the highest of ${reports.length} runs`, server_cpu_us_per_request: highest,
  };
  writeFileSync(BASELINE_PATH, `${JSON.stringify(baseline, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
