// Durations as people type them for SLA targets: "1h 30m", "2d", "45 min", "1 day 4 hours"; a bare
// number is minutes. Shown back the same way ("1d 4h 30m"), so what is saved reads as typed. And
// spans as lists show them, compactly: a wait ("4 min"), the time left on a clock ("3 h").

const UNIT_SECONDS: [RegExp, number][] = [
  [/^(d|days?)$/, 86_400], [/^(h|hrs?|hours?)$/, 3600], [/^(m|mins?|minutes?)$/, 60], [/^(s|secs?|seconds?)$/, 1],
];

/** Seconds in `text`; null for an empty field; an Error saying what is wrong otherwise. */
export function parseDuration(text: string): number | null | Error {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return null;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 60;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)];
  // Everything typed must be a number with its unit ("1h 30m"), separated by spaces or commas.
  if (parts.length === 0 || trimmed.replace(/(\d+(?:\.\d+)?)\s*([a-z]+)/g, '').replace(/[\s,]+/g, '') !== '') {
    return new Error('Write it as 1h 30m, 2d or 45m');
  }
  let seconds = 0;
  for (const [, amount, unit] of parts) {
    const factor = UNIT_SECONDS.find(([pattern]) => pattern.test(unit))?.[1];
    if (factor === undefined) return new Error(`"${unit}" is not a unit: use d, h, m or s`);
    seconds += Number(amount) * factor;
  }
  return Math.round(seconds);
}

/** "1d 4h 30m" for 102600 seconds; "" for null. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '';
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0) parts.push(`${amount}${unit}`);
  }
  return parts.join(' ') || '0s';
}

/** A span of whole minutes, compactly: "4 min", "3 h", "2 d" (each unit rounded down). */
export function compactMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}

/**
 * The time left until `iso`, compactly ("12 min", "3 h"; under a minute reads "1 min", so a
 * clock says 0 only once it has passed), or how long ago it passed ("overdue 5 min").
 */
export function timeLeft(iso: string, now = Date.now()): { text: string; overdue: boolean } {
  const ms = new Date(iso).getTime() - now;
  if (ms > 0) return { text: compactMinutes(Math.max(1, Math.floor(ms / 60_000))), overdue: false };
  return { text: `overdue ${compactMinutes(Math.floor(-ms / 60_000))}`, overdue: true };
}
