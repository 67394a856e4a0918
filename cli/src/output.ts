// Human output: aligned tables, key-value blocks and relative times, in colour only on a terminal
// that has colours (Node's hasColors() honours NO_COLOR, FORCE_COLOR and TERM=dumb).

/** SGR codes that switch each style on and off. */
const STYLES = {
  bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39],
} as const;
export type Style = keyof typeof STYLES;

const colours = process.stdout.isTTY === true && process.stdout.hasColors();

export function paint(style: Style | undefined, text: string): string {
  if (!colours || !style || text === '') return text;
  const [open, close] = STYLES[style];
  return `\x1b[${open}m${text}\x1b[${close}m`;
}

const ANSI = /\x1b\[\d+m/g;
const visibleLength = (text: string): number => [...text.replace(ANSI, '')].length;

/**
 * `text` cut to `width` visible characters, the last an ellipsis. Styles inside the text (a search
 * match in bold) are kept, those after the cut too, so every style it opens is closed again.
 */
function truncate(text: string, width: number): string {
  if (visibleLength(text) <= width) return text;
  let room = Math.max(width - 1, 0);
  const kept = text.split(/(\x1b\[\d+m)/).map((part, i) => {
    if (i % 2 === 1) return part; // the split's captured separators: the escape sequences
    const characters = [...part].slice(0, room);
    room -= characters.length;
    return characters.join('');
  });
  return `${kept.join('')}…`;
}

/**
 * `text` with the parts `ranges` name (offsets in code points, end excluded) marked: in bold where
 * there is colour, else between [ and ], so a pipe or a NO_COLOR terminal still shows them.
 */
export function highlight(text: string, ranges: readonly { start: number; end: number }[]): string {
  const characters = [...text];
  let marked = '';
  let at = 0;
  for (const { start, end } of ranges) {
    const match = characters.slice(start, end).join('');
    marked += characters.slice(at, start).join('') + (colours ? paint('bold', match) : `[${match}]`);
    at = end;
  }
  return marked + characters.slice(at).join('');
}

export interface Column<Row> {
  header: string;
  value(row: Row): string;
  style?(row: Row): Style | undefined;
  /** The column that gives way (truncated) when a terminal is too narrow; at most one per table. */
  shrinks?: boolean;
}

/** Rows under a header, each column as wide as its widest cell; on a terminal, the shrinking column is cut to fit. */
export function table<Row>(rows: Row[], columns: Column<Row>[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row).replace(/\s+/g, ' ')));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => visibleLength(line[i]))));
  const shrinking = columns.findIndex((column) => column.shrinks);
  const available = process.stdout.isTTY ? process.stdout.columns : undefined;
  if (shrinking >= 0 && available) {
    const others = widths.reduce((sum, width, i) => (i === shrinking ? sum : sum + width + 2), 0);
    widths[shrinking] = Math.max(Math.min(widths[shrinking], available - others), columns[shrinking].header.length);
  }
  const line = (texts: string[], style: (i: number) => Style | undefined) =>
    texts
      .map((text, i) => {
        const cell = i === shrinking ? truncate(text, widths[i]) : text;
        const padded = i === texts.length - 1 ? cell : cell + ' '.repeat(Math.max(widths[i] - visibleLength(cell), 0));
        return paint(style(i), padded);
      })
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((column) => column.header), () => 'bold'),
    ...cells.map((texts, r) => line(texts, (i) => columns[i].style?.(rows[r]))),
  ].join('\n');
}

/** `label  value` lines, labels aligned; entries whose value is null are left out. */
export function fields(entries: [label: string, value: string | null][]): string {
  const shown = entries.filter((entry): entry is [string, string] => entry[1] !== null);
  const width = Math.max(...shown.map(([label]) => label.length));
  return shown.map(([label, value]) => `${paint('dim', label.padEnd(width))}  ${value}`).join('\n');
}

const UNITS: [name: string, seconds: number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "in 2 days", … */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const unit = UNITS.find(([, size]) => Math.abs(seconds) >= size);
  if (!unit) return 'just now';
  const count = Math.floor(Math.abs(seconds) / unit[1]);
  const amount = `${count} ${unit[0]}${count === 1 ? '' : 's'}`;
  return seconds < 0 ? `${amount} ago` : `in ${amount}`;
}

/** "Showing 1–20 of 35", and how to get the next page when there is one. */
export function pageSummary({ total, limit, offset }: { total: number; limit: number; offset: number }, shown: number): string {
  if (total === 0) return paint('dim', 'Nothing found.');
  if (shown === 0) return paint('dim', `Nothing at offset ${offset} (${total} in all).`);
  const next = offset + shown < total ? ` · next page: --offset ${offset + limit}` : '';
  return paint('dim', `Showing ${offset + 1}–${offset + shown} of ${total}${next}`);
}
