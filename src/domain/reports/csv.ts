// RFC 4180 lines for the reports' CSV (docs/reports.md, "CSV"): every field quoted when it holds a
// comma, quote or line break, quotes doubled, lines ended by CRLF. A text that a spreadsheet would
// run as a formula (starting with = + - @, or a tab or carriage return before one) gets a leading
// apostrophe, as OWASP advises for CSV injection; numbers are written as numbers.

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: readonly (string | number | null)[]): string => `${values.map(cell).join(',')}\r\n`;
