// The command line of `npm run bench`: which database, which data sizes, how long, which scenarios.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CONNECTIONS, type LoadLength } from './load.js';

export type BenchDb = 'sqlite' | 'postgres';

export interface Scale {
  /** As given on the command line: `1k`, `10k`, `100k`, or a plain count such as `200`. */
  label: string;
  issues: number;
}

export interface BenchOptions {
  db: BenchDb;
  scales: Scale[];
  /** Each load's warm-up and measured window: --duration seconds, or --requests answers. */
  length: LoadLength;
  /** Scenario names to run (spaces may be written as `_`); empty means all. */
  only: string[];
  logLevel: string;
  /** Directory for the server's V8 CPU profiles, or null. */
  cpuProfileDir: string | null;
  /** Where latest.json is written. */
  resultsDir: string;
  /** Run with a webhook endpoint for every event at a local receiver (issue 11: writes with delivery). */
  webhooks: boolean;
  /** LOOPDESK_RATE_LIMIT of the server under test: 0 (off) unless measuring the limiter's own cost. */
  rateLimit: number;
}

export const USAGE = `usage: npm run bench -- [options]

  --db sqlite|postgres     database under test (default sqlite; postgres starts a throwaway cluster)
  --scale N                issues to seed: 1k, 10k, 100k or a plain count; repeatable (default 1k, 10k, 100k)
  --duration SECONDS       measured seconds per scenario, after a warm-up of up to 2 s (default 10)
  --requests N             instead of --duration: N requests measured per scenario, after N of warm-up (the smoke's setting)
  --only NAME,NAME         run only these scenarios, e.g. "GET /me" or GET_/me (the ceiling always runs)
  --log-level LEVEL        the server's LOOPDESK_LOG_LEVEL (default warn)
  --cpu-prof DIR           write the server's V8 CPU profile (node --cpu-prof) into DIR
  --results DIR            where latest.json goes (default bench/results)
  --webhooks               subscribe a webhook endpoint to every event, at a receiver in this process
  --rate-limit N           the server's LOOPDESK_RATE_LIMIT (default 0: off), to measure the limiter's cost`;

export class UsageError extends Error {}

export function parseScale(text: string): Scale {
  const match = /^([1-9][0-9]*)(k?)$/.exec(text.trim());
  if (!match) throw new UsageError(`--scale must look like 1k, 10k, 100k or 500, got "${text}"`);
  return { label: text.trim(), issues: Number(match[1]) * (match[2] ? 1000 : 1) };
}

/** Scenario names compare with spaces and underscores treated alike. */
export const scenarioKey = (name: string): string => name.trim().replaceAll(' ', '_');

export function parseBenchArgs(argv: string[]): BenchOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        db: { type: 'string', default: 'sqlite' },
        scale: { type: 'string', multiple: true },
        duration: { type: 'string' },
        requests: { type: 'string' },
        only: { type: 'string', multiple: true },
        'log-level': { type: 'string', default: 'warn' },
        'cpu-prof': { type: 'string' },
        results: { type: 'string', default: 'bench/results' },
        webhooks: { type: 'boolean', default: false },
        'rate-limit': { type: 'string', default: '0' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) throw new UsageError('');
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new UsageError(`--db must be sqlite or postgres, got "${values.db}"`);
  if (values.duration !== undefined && values.requests !== undefined) throw new UsageError('--duration and --requests exclude each other');
  let length: LoadLength;
  if (values.requests === undefined) {
    const duration = Number(values.duration ?? '10');
    if (!Number.isInteger(duration) || duration < 1 || duration > 600) throw new UsageError('--duration must be an integer from 1 to 600');
    length = { seconds: duration };
  } else {
    const requests = Number(values.requests);
    // Fewer than one request per connection would measure the connections' first answers alone.
    if (!Number.isInteger(requests) || requests < CONNECTIONS) throw new UsageError(`--requests must be an integer from ${CONNECTIONS} (one per connection)`);
    length = { requests };
  }
  const rateLimit = Number(values['rate-limit']);
  if (!Number.isInteger(rateLimit) || rateLimit < 0) throw new UsageError('--rate-limit must be an integer from 0 (off)');
  return {
    db: values.db,
    scales: (values.scale ?? ['1k', '10k', '100k']).map(parseScale),
    length,
    only: (values.only ?? []).flatMap((list) => list.split(',')).map(scenarioKey).filter(Boolean),
    logLevel: values['log-level'],
    cpuProfileDir: values['cpu-prof'] ? resolve(values['cpu-prof']) : null,
    resultsDir: values.results,
    webhooks: values.webhooks === true,
    rateLimit,
  };
}
