// A node:test reporter (beside `spec`, see test/run.ts) that prints, after the run, how long the
// suite took and its ten slowest files, so the next slow test is seen the day it lands. A file's
// time is the duration its process reports in the summary it sends at its end.
import { relative } from 'node:path';

interface TestEvent {
  type: string;
  data: { file?: string; duration_ms?: number };
}

const SHOWN = 10;

export default async function* slowestFiles(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const started = performance.now();
  const seconds = new Map<string, number>();
  for await (const event of source) {
    // One summary per file, and a last one for the whole run (without a file).
    const { file, duration_ms: duration } = event.data;
    if (event.type !== 'test:summary' || !file || duration === undefined) continue;
    seconds.set(relative(process.cwd(), file), duration / 1000);
  }
  const total = [...seconds.values()].reduce((sum, value) => sum + value, 0);
  const wall = (performance.now() - started) / 1000;
  const slowest = [...seconds].sort((x, y) => y[1] - x[1]).slice(0, SHOWN);
  yield `\nTest files: ${seconds.size}, ${wall.toFixed(0)} s of wall time, ${total.toFixed(0)} s in test files (they run side by side)\n`;
  yield `The ${slowest.length} slowest:\n`;
  for (const [name, time] of slowest) yield `${time.toFixed(1).padStart(8)} s  ${name}\n`;
}
