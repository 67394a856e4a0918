// Deterministic, realistic-looking data for the bench: a seeded PRNG and support-ticket texts,
// so two runs seed the same data and the lexical duplicate matcher sees plausible titles.
import type { IssueText } from '../src/dedup/detector.js';

export type Random = () => number;

/** mulberry32: a small, fast PRNG; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** `count` distinct indexes below `size` (all of them when size <= count), in random order. */
export function sampleIndexes(random: Random, size: number, count: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(size, count)) chosen.add(Math.floor(random() * size));
  return [...chosen];
}

const SUBJECTS = [
  'Checkout button', 'Login form', 'Password reset email', 'Invoice PDF', 'Search results', 'Dashboard chart',
  'Notification bell', 'CSV export', 'Profile picture upload', 'Dark mode toggle', 'Payment page', 'Onboarding tour',
  'Calendar sync', 'Order history', 'Shopping cart', 'Two-factor prompt', 'Language selector', 'Help widget',
  'Mobile menu', 'Team invite link',
];
const SYMPTOMS = [
  'does nothing', 'shows a blank page', 'is very slow', 'crashes the app', 'shows the wrong total', 'times out',
  'loses unsaved changes', 'is cut off', 'sends duplicates', 'ignores the setting', 'returns an error 500',
  'flickers', 'shows stale data', 'is misaligned',
];
const CONTEXTS = [
  'on Android', 'on iOS', 'in Safari', 'in Firefox', 'after the last update', 'for new customers', 'on slow networks',
  'in the EU region', 'when logged in with SSO', 'on large accounts', 'in Spanish', 'on the tablet layout',
];
const REPLIES = [
  'Thanks for the report, we are looking into it.', 'Could you send a screenshot of what you see?',
  'This should be fixed in the next release.', 'I can reproduce it on my side, escalating to the team.',
  'Does it still happen after clearing the cache?', 'We shipped a fix, can you confirm it works now?',
  'It happens every time I try, on two different devices.', 'Still broken for me this morning.',
];

export const issueTitle = (random: Random): string => `${pick(random, SUBJECTS)} ${pick(random, SYMPTOMS)} ${pick(random, CONTEXTS)}`;

export const issueDescription = (random: Random): string =>
  `Reported by ${1 + Math.floor(random() * 9)} customers. ${pick(random, REPLIES)}`;

export const messageBody = (random: Random): string => pick(random, REPLIES);

/** A vocabulary of made-up words whose use follows Zipf's law (the k-th word is used ∝ 1/k), letters as frequent as in English. */
function zipfWords(random: Random, size: number): () => string {
  const letters = 'eeeeeeeeeeeettttttttttaaaaaaaaoooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummmwwffggyyppbbvkjxqz';
  const words = Array.from({ length: size }, () =>
    Array.from({ length: 3 + Math.floor(random() * 7) }, () => letters[Math.floor(random() * letters.length)]).join(''));
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let k = 0; k < size; k++) cumulative[k] = total += 1 / (k + 1);
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return words[low];
  };
}

/** The dedup benches' texts: the tickets above, or a long tail of Zipf-distributed made-up words. */
export type TextKind = 'tickets' | 'long tail';

export function textSource(kind: TextKind, seed: number): () => IssueText {
  const random = seededRandom(seed);
  if (kind === 'tickets') return () => ({ title: issueTitle(random), description: issueDescription(random) });
  const word = zipfWords(seededRandom(7), 50_000);
  const words = (min: number, spread: number) => Array.from({ length: min + Math.floor(random() * spread) }, word).join(' ');
  return () => ({ title: words(5, 5), description: words(10, 15) });
}
