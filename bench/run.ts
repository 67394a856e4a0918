// `npm run bench`: seeds a fresh database per scale through the services, measures the bare
// Fastify ceiling, then runs every scenario against `bin/loopdesk.js serve` (one server process
// per scale) and against the floor (bench/floor-server.ts, the same answers by hand, on the same
// database; checked equal first) with autocannon in a separate process. See docs/benchmarks.md.
import { mkdirSync } from 'node:fs';
import { asDeployed, backlogDone, withDatabase } from './bench-database.js';
import { USAGE, UsageError, parseBenchArgs, scenarioKey, type BenchOptions, type Scale } from './args.js';
import { databaseFactory } from './databases.js';
import { CONNECTIONS, runLoad, type LoadLength, type RequestSpec } from './load.js';
import { checkFloor } from './floor-check.js';
import { BENCH_SUMMARY_DEBOUNCE_MS, cpuMs, startCeiling, startFloor, startLoopdesk, type ServerProcess } from './processes.js';
import { describeMachine, markdown, writeReport, type Ceiling, type ScenarioResult, type WriteDeliveries } from './report.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { seedMain, type Fixture, type SeedSummary } from './seed.js';
import { startWebhookReceiver, subscribe } from './webhook-receiver.js';

interface Seeded {
  scale: Scale;
  url: string;
  fixture: Fixture;
  summary: SeedSummary;
  /** What each scenario's own `seed` returned. */
  own: Map<Scenario, unknown>;
}

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

async function measureCeiling(length: LoadLength): Promise<Ceiling> {
  const server = await startCeiling();
  try {
    const { rps, p50_ms, p99_ms } = await runLoad(server, 'ceiling', [{ method: 'GET', path: '/' }], length);
    progress(`ceiling: ${Math.round(rps)} req/s, p50 ${p50_ms} ms, p99 ${p99_ms} ms`);
    return { rps, p50_ms, p99_ms };
  } finally {
    await server.stop();
  }
}

interface FloorRun {
  floor: ServerProcess;
  /** Loopdesk's server, paused while the floor is measured. */
  server: ServerProcess;
  url: string;
  key: string;
  requests: RequestSpec[];
  length: LoadLength;
}

const IDLE_POLL_MS = 100;

/** Waits until the process used no CPU between two looks (/proc counts in 10 ms ticks). */
async function idle(pid: number): Promise<void> {
  for (let before = cpuMs(pid); ; ) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    const now = cpuMs(pid);
    if (now === before) return;
    before = now;
  }
}

/**
 * The floor's rate for the scenario, measured right after Loopdesk's (`rps`), and their ratio; or
 * why there is none. Loopdesk is paused meanwhile (SIGSTOP): its dispatcher would otherwise fan out
 * the floor's events as they are written, taking a core and SQLite's write lock from the floor.
 * It is paused only once idle (the requests autocannon stopped waiting for have committed and
 * released their locks, or the floor would wait on them), and works through the floor's events
 * once resumed, before the next scenario.
 */
async function measureFloor({ floor, server, url, key, requests, length }: FloorRun, rps: number, unanswered: string | null) {
  // The scenario's background work (fan-out, folds, triage) is done before anything else is measured or checked.
  await backlogDone(url);
  if (unanswered !== null) return { floor_rps: null, floor_ratio: null, floor_skipped: unanswered };
  await idle(server.pid);
  process.kill(server.pid, 'SIGSTOP');
  let load;
  try {
    load = await runLoad(floor, key, requests, length);
  } finally {
    process.kill(server.pid, 'SIGCONT');
  }
  await backlogDone(url);
  return { floor_rps: load.rps, floor_ratio: load.rps > 0 ? Number((rps / load.rps).toFixed(3)) : null };
}

async function runScale(seeded: Seeded, scenarios: Scenario[], ceiling: Ceiling, options: BenchOptions): Promise<ScenarioResult[]> {
  const { scale, url, fixture, own } = seeded;
  const receiver = options.webhooks ? await startWebhookReceiver() : null;
  const server = await startLoopdesk({
    databaseUrl: url, logLevel: options.logLevel, cpuProfileDir: options.cpuProfileDir,
    env: {
      LOOPDESK_RATE_LIMIT: String(options.rateLimit),
      LOOPDESK_SUMMARY_DEBOUNCE_MS: String(BENCH_SUMMARY_DEBOUNCE_MS),
      ...(receiver ? { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1' } : {}),
    },
  });
  const results: ScenarioResult[] = [];
  let floor: ServerProcess | null = null;
  try {
    if (receiver) await subscribe(server.baseUrl, fixture.key, receiver.url);
    const backlogFrom = performance.now();
    await backlogDone(url);
    progress(`${scale.label}: the server worked through the outbox and conversation jobs seeding left in ${((performance.now() - backlogFrom) / 1000).toFixed(1)} s`);
    floor = await startFloor(url);
    for (const scenario of scenarios.filter((s) => s.runsAt?.(scale) ?? true)) {
      const prepared = await scenario.prepare({ fixture, scale, baseUrl: server.baseUrl, own: own.get(scenario) });
      if ('skipped' in prepared) {
        progress(`${scale.label} ${scenario.name}: skipped (${prepared.skipped})`);
        results.push({
          name: scenario.name, scale: scale.label, rps: null, p50_ms: null, p99_ms: null, ratio: null, errors: null, peak_rss_mb: null,
          floor_rps: null, floor_ratio: null, skipped: prepared.skipped,
        });
        continue;
      }
      // With webhooks, Loopdesk's writes also deliver (in the background, racing the check's row
      // counts), which the floor does not do: no floor to compare with.
      const unanswered = options.webhooks
        ? 'not measured with --webhooks: the floor does not deliver'
        : await checkFloor({
          loopdesk: { name: 'Loopdesk', baseUrl: server.baseUrl }, floor: { name: 'floor', baseUrl: floor.baseUrl },
          key: prepared.key, requests: prepared.requests, writes: scenario.writes, databaseUrl: url,
        });
      const cpuBefore = cpuMs(server.pid);
      const benchCpuBefore = process.cpuUsage();
      const receivedBefore = receiver?.received() ?? 0;
      const load = await runLoad(server, prepared.key, prepared.requests, options.length);
      // Each write records one event: with an endpoint, one delivery each. The server's CPU is then
      // counted from the warm-up on until they have all arrived, so it includes the delivery work
      // that lagged; without one, over the measured window.
      let deliveries: WriteDeliveries | undefined;
      if (receiver && scenario.writes) {
        const inWindow = receiver.received() - receivedBefore;
        const drainSeconds = await receiver.drained(receivedBefore + load.succeeded);
        // The bench process does little else than receive while a load runs.
        const { user, system } = process.cpuUsage(benchCpuBefore);
        const receiverCpu = Math.round((user + system) / Math.max(1, receiver.received() - receivedBefore));
        deliveries = { expected: load.succeeded, in_window: inWindow, drain_seconds: drainSeconds, receiver_cpu_us_per_delivery: receiverCpu };
      }
      const cpuUsPerRequest = deliveries
        ? ((cpuMs(server.pid) - cpuBefore) * 1000) / Math.max(1, load.succeeded)
        : load.server_cpu_us_per_request;
      const ratio = load.rps / ceiling.rps;
      const floorLoad = await measureFloor(
        { floor, server, url, key: prepared.key, requests: prepared.requests, length: options.length }, load.rps, unanswered,
      );
      const lag = deliveries ? `; ${deliveries.in_window}/${deliveries.expected} delivered during the load, the rest ${deliveries.drain_seconds.toFixed(1)} s later` : '';
      progress(
        `${scale.label} ${scenario.name}: ${Math.round(load.rps)} req/s (${ratio.toFixed(2)} of ceiling, ` +
          `${floorLoad.floor_ratio === null ? `no floor: ${floorLoad.floor_skipped}` : `${floorLoad.floor_ratio.toFixed(2)} of its floor's ${Math.round(floorLoad.floor_rps!)}`}), ` +
          `p99 ${load.p99_ms} ms, ${load.errors} errors, server CPU ${Math.round(cpuUsPerRequest)} µs/request${lag}`,
      );
      results.push({
        name: scenario.name, scale: scale.label, rps: load.rps, p50_ms: load.p50_ms, p99_ms: load.p99_ms,
        ratio: Number(ratio.toFixed(3)), errors: load.errors, peak_rss_mb: load.peak_rss_mb, server_cpu_us_per_request: Math.round(cpuUsPerRequest),
        ...floorLoad,
        ...(deliveries ? { deliveries } : {}),
      });
    }
  } finally {
    await floor?.stop();
    await server.stop();
    if (receiver) {
      progress(`${scale.label} webhooks: ${receiver.received()} deliveries received`);
      await receiver.close();
    }
  }
  return results;
}

function selectScenarios(only: string[]): Scenario[] {
  const unknown = only.filter((name) => !SCENARIOS.some((s) => scenarioKey(s.name) === name));
  if (unknown.length) throw new UsageError(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const chosen = SCENARIOS.filter((s) => only.length === 0 || only.includes(scenarioKey(s.name)));
  return [...chosen.filter((s) => !s.writes), ...chosen.filter((s) => s.writes)];
}

async function bench(options: BenchOptions): Promise<void> {
  const scenarios = selectScenarios(options.only);
  if (options.cpuProfileDir) mkdirSync(options.cpuProfileDir, { recursive: true });
  const factory = await databaseFactory(options.db);
  const stopOnSignal = () => {
    factory.dispose();
    process.exit(130);
  };
  process.once('SIGINT', stopOnSignal).once('SIGTERM', stopOnSignal);
  try {
    const seeded: Seeded[] = [];
    for (const scale of options.scales) {
      const url = await factory.fresh(`scale_${scale.label}`);
      progress(`seeding ${scale.label} (${scale.issues} issues) on ${options.db}`);
      const own = new Map<Scenario, unknown>();
      const { fixture, summary } = await withDatabase(url, async (database) => {
        const main = await seedMain(database, scale.issues);
        for (const scenario of scenarios.filter((s) => s.seed && (s.runsAt?.(scale) ?? true))) {
          own.set(scenario, await scenario.seed!(database, scale));
        }
        await asDeployed(database);
        return main;
      });
      progress(`seeded ${scale.label} in ${summary.seconds.toFixed(1)} s: ${JSON.stringify({ ...summary, seconds: undefined })}`);
      seeded.push({ scale, url, fixture, summary, own });
    }
    const measured = 'seconds' in options.length ? `${options.length.seconds} s` : `${options.length.requests} requests`;
    progress(`measuring: ${CONNECTIONS} connections, ${measured} per scenario after a warm-up`);
    const ceiling = await measureCeiling(options.length);
    const results: ScenarioResult[] = [];
    for (const entry of seeded) results.push(...(await runScale(entry, scenarios, ceiling, options)));

    const report = { machine: describeMachine(), date: new Date().toISOString(), db: options.db, webhooks: options.webhooks, ceiling, scenarios: results };
    const path = writeReport(options.resultsDir, report);
    process.stdout.write(markdown(report, seeded.map(({ scale, summary }) => ({ scale: scale.label, summary }))));
    progress(`wrote ${path}`);
  } finally {
    factory.dispose();
  }
}

try {
  await bench(parseBenchArgs(process.argv.slice(2)));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message ? `bench: ${error.message}\n\n` : ''}${USAGE}\n`);
  process.exit(2);
}
