import type { SqlCell, SqlResultColumn } from '../../src-main/core/api/trace-api';

// C0 controls but tab and newline, DEL, C1 controls: shown escaped, never pasted raw
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const escaped = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A cell as a spreadsheet gets it: controls escaped, a formula start (= + - @ tab CR) defused. */
function cellText(value: SqlCell): string {
  if (value === null) return '';
  const text = String(value);
  if (typeof value !== 'string') return text;
  const safe = text.replace(CONTROL, escaped);
  return /^[=+\-@\t\r]/.test(text) ? `'${safe}` : safe;
}

/** A result as CSV (RFC 4180) or TSV (tabs and line breaks in cells shown as \t, \n). */
export function resultText(
  columns: SqlResultColumn[],
  rows: SqlCell[][],
  format: 'csv' | 'tsv',
): string {
  const field =
    format === 'csv'
      ? (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)
      : (text: string) => text.replace(/\t/g, '\\t').replace(/\r?\n|\r/g, '\\n');
  const separator = format === 'csv' ? ',' : '\t';
  const lines = [columns.map((c) => field(c.name)).join(separator)];
  for (const row of rows) lines.push(row.map((v) => field(cellText(v))).join(separator));
  return `${lines.join(format === 'csv' ? '\r\n' : '\n')}\n`;
}

/** Where a result row's sample is: the columns `row` (and `file`, else file 0) when present. */
export function sampleColumns(columns: SqlResultColumn[]): { file: number; row: number } | null {
  const row = columns.findIndex((c) => c.name === 'row');
  if (row < 0) return null;
  return { file: columns.findIndex((c) => c.name === 'file'), row };
}
