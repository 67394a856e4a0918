// CSV as RFC 4180 writes it (CRLF line ends; a field with a comma, quote or line break in quotes,
// its quotes doubled), safe to open in a spreadsheet: a cell that would start a formula (=, +, -,
// @, a tab or a carriage return first) gets a leading apostrophe, so it is shown as text (OWASP's
// advice on CSV injection). Numbers are written as numbers, so negative ones are never touched.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: empty for null, the text made inert and quoted as needed. */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export const csvRecord = (cells: readonly (string | number | boolean | null)[]): string => `${cells.map(csvCell).join(',')}\r\n`;
