// The `auto` provider's detector: it delegates to the current matcher (lexical at first) until
// `switchTo` hands it another (the local model, once loaded). A report is decided by the matcher
// that prepared it, so a request in flight during the switch uses one matcher from prepare to
// decide; the matcher it replaced is not closed, because such a report may still need it.
import type { DuplicateDetector, PreparedReport } from './detector.js';

interface RoutedReport extends PreparedReport {
  readonly matcher: DuplicateDetector;
  readonly report: PreparedReport;
}

export interface SwitchingDetector extends DuplicateDetector {
  /** Reports prepared from now on go to `next`; `name` (and so GET /readyz) reports it at once. */
  switchTo(next: DuplicateDetector): void;
}

/** `release` runs on close, before the current matcher closes (the loader of the next one, say). */
export function createSwitchingDetector(initial: DuplicateDetector, release: () => Promise<void>): SwitchingDetector {
  let current = initial;
  return {
    get name() {
      return current.name;
    },
    get threshold() {
      return current.threshold;
    },
    get embedder() {
      return current.embedder;
    },
    async prepare(report) {
      const matcher = current;
      const prepared = await matcher.prepare(report);
      return { text: prepared.text, detector: prepared.detector, matcher, report: prepared } satisfies RoutedReport;
    },
    async warm(prepared, scope) {
      const { matcher, report } = prepared as RoutedReport;
      await matcher.warm?.(report, scope);
    },
    decide(prepared, scope, tx) {
      const { matcher, report } = prepared as RoutedReport;
      return matcher.decide(report, scope, tx);
    },
    indexIssue: (issue) => current.indexIssue(issue),
    created(issue) {
      current.created?.(issue);
    },
    switchTo(next) {
      current = next;
    },
    async close() {
      await release();
      await current.close();
    },
  };
}
