// Regular expressions of `matches` conditions (docs/automation.md, "Regular expressions"): checked
// when a rule is saved, bounded when it runs. JavaScript's engine backtracks, and a pattern like
// `(a+)+$` takes exponential time on a string that almost matches; nothing can interrupt a regular
// expression running on the event loop. So a pattern is refused at save time when safe-regex2 (the
// checker Fastify's router uses) finds nested quantifiers, and every match runs in a worker thread
// on at most MATCH_INPUT_MAX characters, under a time limit past which the worker is ended (and a
// new one started for the next match): a pattern that slips past the check costs its rule that one
// condition (it does not hold), never the server.
import { Worker } from 'node:worker_threads';
import safeRegex from 'safe-regex2';

export const PATTERN_MAX = 500;
/** Text beyond this many characters is not searched (a message body holds up to 50,000). */
export const MATCH_INPUT_MAX = 10_000;
/** How long one match may run. */
export const MATCH_TIME_LIMIT_MS = 100;
/** Case-insensitive, Unicode-aware: how the API documents `matches`. */
const FLAGS = 'iu';

/** Why a pattern is refused, or null when it may be saved. */
export function patternProblem(pattern: string): string | null {
  if ([...pattern].length > PATTERN_MAX) return `must be at most ${PATTERN_MAX} characters`;
  try {
    new RegExp(pattern, FLAGS);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  if (!safeRegex(pattern)) return 'may take exponential time (nested quantifiers, as in (a+)+): write it without repeating a repeated group';
  return null;
}

// The worker keeps the patterns it compiled (a few hundred at most) and answers one match at a time.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const compiled = new Map();
parentPort.on('message', ({ pattern, flags, input }) => {
  let regex = compiled.get(pattern);
  if (!regex) {
    if (compiled.size >= 500) compiled.clear();
    regex = new RegExp(pattern, flags);
    compiled.set(pattern, regex);
  }
  parentPort.postMessage(regex.test(input));
});
`;

export type MatchResult = boolean | 'timed_out';

/** Matches patterns off the event loop, one at a time, each under the time limit. */
export function createRegexRunner({ timeLimitMs = MATCH_TIME_LIMIT_MS }: { timeLimitMs?: number } = {}) {
  let worker: { thread: Worker; online: Promise<void> } | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  /** The worker, started when first needed; its start-up does not count against a match's time. */
  const started = () => {
    if (!worker) {
      const thread = new Worker(WORKER_SOURCE, { eval: true });
      // An idle worker must not keep the process alive.
      thread.unref();
      worker = { thread, online: new Promise((resolve, reject) => thread.once('online', resolve).once('error', reject)) };
    }
    return worker;
  };

  async function matchNow(pattern: string, input: string): Promise<MatchResult> {
    const running = started();
    await running.online;
    const { thread } = running;
    return new Promise<MatchResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        worker = null;
        void thread.terminate();
        resolve('timed_out');
      }, timeLimitMs);
      const onMessage = (matched: boolean) => {
        cleanup();
        resolve(matched);
      };
      const onError = (error: Error) => {
        cleanup();
        worker = null;
        reject(error);
      };
      const cleanup = () => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
      };
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.postMessage({ pattern, flags: FLAGS, input: input.slice(0, MATCH_INPUT_MAX) });
    });
  }

  return {
    /** Whether `pattern` matches `input` (its first MATCH_INPUT_MAX characters), or `timed_out`. */
    match(pattern: string, input: string): Promise<MatchResult> {
      const result = queue.then(() => matchNow(pattern, input));
      queue = result.catch(() => undefined);
      return result;
    },

    async close(): Promise<void> {
      await queue;
      await worker?.thread.terminate();
      worker = null;
    },
  };
}

export type RegexRunner = ReturnType<typeof createRegexRunner>;
