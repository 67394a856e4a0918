// The parts of a clean first start that need no server: the log format and model settings, the
// background loader's growing delays, and the detector that switches matchers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Decision, DuplicateDetector, PreparedReport } from '../../src/dedup/detector.js';
import { createLexicalDetector } from '../../src/dedup/lexical.js';
import { loadInBackground, MAX_RETRY_MS, retryDelay } from '../../src/dedup/model-loader.js';
import { createSwitchingDetector } from '../../src/dedup/switching-detector.js';

describe('log format and model settings', () => {
  it('logs pretty lines on a terminal and JSON otherwise', () => {
    assert.equal(loadConfig({}, true).logFormat, 'pretty');
    assert.equal(loadConfig({}, false).logFormat, 'json');
  });

  it('lets LOOPDESK_LOG_FORMAT choose either way, and rejects anything else', () => {
    assert.equal(loadConfig({ LOOPDESK_LOG_FORMAT: 'json' }, true).logFormat, 'json');
    assert.equal(loadConfig({ LOOPDESK_LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
    assert.throws(() => loadConfig({ LOOPDESK_LOG_FORMAT: 'xml' }), /LOOPDESK_LOG_FORMAT must be one of pretty, json, got "xml"/);
  });

  it('downloads from the hub unless LOOPDESK_MODELS_URL names a mirror, and retries after 30 s at first', () => {
    assert.equal(loadConfig({}).dedup.modelsUrl, null);
    assert.equal(loadConfig({}).dedup.modelRetryMs, 30_000);
    assert.equal(loadConfig({ LOOPDESK_MODELS_URL: 'http://mirror.internal/hf/' }).dedup.modelsUrl, 'http://mirror.internal/hf/');
    assert.throws(() => loadConfig({ LOOPDESK_MODELS_URL: 'mirror.internal' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_MODEL_RETRY_MS: '0' }), ConfigError);
  });
});

/** Awaits `work` with the event loop held open: the loader's retry timer alone does not hold it. */
async function held<T>(work: Promise<T>): Promise<T> {
  const open = setInterval(() => {}, 1000);
  try {
    return await work;
  } finally {
    clearInterval(open);
  }
}

describe('loading the model in the background', () => {
  it('doubles the wait after each failure, up to an hour', () => {
    assert.deepEqual([1, 2, 3, 4].map((n) => retryDelay(30_000, n)), [30_000, 60_000, 120_000, 240_000]);
    assert.equal(retryDelay(30_000, 20), MAX_RETRY_MS);
  });

  it('retries until an attempt succeeds, reporting each failure once with the next wait', async () => {
    const failures: [string, number][] = [];
    let attempts = 0;
    let loads = 0;
    const loaded = new Promise<void>((resolve) => {
      loadInBackground({
        attempt: async () => {
          if (++attempts < 3) throw new Error(`down ${attempts}`);
        },
        firstRetryMs: 1,
        loaded: () => {
          loads++;
          resolve();
        },
        failed: (error, wait) => failures.push([(error as Error).message, wait]),
      });
    });
    await held(loaded);
    assert.deepEqual(failures, [['down 1', 1], ['down 2', 2]]);
    assert.equal(loads, 1);
  });

  it('says whether the first attempt loaded, and hands nothing over once stopped', async () => {
    assert.equal(await loadInBackground({ attempt: async () => {}, firstRetryMs: 1, loaded: () => {}, failed: () => {} }).firstAttempt, true);
    let loads = 0;
    const load = loadInBackground({ attempt: async () => {}, firstRetryMs: 1, loaded: () => loads++, failed: () => {} });
    load.stop();
    assert.equal(await load.firstAttempt, false);
    assert.equal(loads, 0);
  });
});

/** A matcher that records which reports it decided; it matches every report to `issue-<name>`. */
function recordingMatcher(name: string) {
  const decided: string[] = [];
  const matcher: DuplicateDetector = {
    name,
    threshold: 0.5,
    prepare: async (report) => ({ text: `${name}:${report.title}`, detector: name }),
    async decide(prepared: PreparedReport): Promise<Decision> {
      if (!prepared.text.startsWith(`${name}:`)) throw new Error(`${name} got a report prepared by another matcher`);
      decided.push(prepared.text);
      return { issueId: `issue-${name}`, score: 1 };
    },
    indexIssue: async () => {},
    close: async () => {},
  };
  return { matcher, decided };
}

describe('the switching detector', () => {
  const scope = { workspaceId: 'w', productId: 'p', candidates: [] };

  it('reports the live matcher by name and hands it the reports prepared after the switch', async () => {
    const lexical = recordingMatcher('lexical');
    const model = recordingMatcher('local:model');
    const detector = createSwitchingDetector(lexical.matcher, async () => {});
    assert.equal(detector.name, 'lexical');
    detector.switchTo(model.matcher);
    assert.equal(detector.name, 'local:model');
    assert.equal(detector.threshold, 0.5);
    const decision = await detector.decide(await detector.prepare({ title: 'a', description: null }), scope);
    assert.deepEqual(decision, { issueId: 'issue-local:model', score: 1 });
    assert.deepEqual(model.decided, ['local:model:a']);
  });

  it('decides a report prepared before the switch with the matcher that prepared it', async () => {
    const lexical = recordingMatcher('lexical');
    const model = recordingMatcher('local:model');
    const detector = createSwitchingDetector(lexical.matcher, async () => {});
    const prepared = await detector.prepare({ title: 'in flight', description: null });
    detector.switchTo(model.matcher);
    assert.equal(prepared.detector, 'lexical', 'recorded as decided by the matcher that prepared it');
    assert.deepEqual(await detector.decide(prepared, scope), { issueId: 'issue-lexical', score: 1 });
    assert.deepEqual(lexical.decided, ['lexical:in flight']);
    assert.deepEqual(model.decided, []);
  });

  it('runs the lexical matcher unchanged behind it', async () => {
    const detector = createSwitchingDetector(createLexicalDetector(), async () => {});
    const candidates = [{ id: 'i1', title: 'Export to CSV crashes the app', description: null }];
    const decision = await detector.decide(await detector.prepare({ title: 'export to csv crashes the app!', description: null }), { ...scope, candidates });
    assert.equal(decision.issueId, 'i1');
  });

  it('releases what it was given, then closes the current matcher', async () => {
    const closed: string[] = [];
    const current = { ...recordingMatcher('lexical').matcher, close: async () => void closed.push('matcher') };
    await createSwitchingDetector(current, async () => void closed.push('loader')).close();
    assert.deepEqual(closed, ['loader', 'matcher']);
  });
});
