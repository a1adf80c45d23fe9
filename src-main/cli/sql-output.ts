import type { SqlCell, SqlResultColumn } from '../core/api/trace-api';
import { terminalText } from '../core/bytes/terminal-text';
import { csvField } from './safe-cell-text';

export const SQL_OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type SqlOutputFormat = (typeof SQL_OUTPUT_FORMATS)[number];

export const isSqlOutputFormat = (v: unknown): v is SqlOutputFormat =>
  (SQL_OUTPUT_FORMATS as readonly unknown[]).includes(v);

/** widest a table cell is printed (longer text is cut with an ellipsis) */
const MAX_CELL_WIDTH = 60;

/** A query's result as the `sql` command prints it: an aligned table, CSV, or JSON lines. */
export function formatSqlResult(
  columns: SqlResultColumn[],
  rows: SqlCell[][],
  format: SqlOutputFormat,
): string {
  if (format === 'json') {
    // one JSON object per line (JSON escapes every control character)
    return rows
      .map((row) => JSON.stringify(Object.fromEntries(columns.map((c, k) => [c.name, row[k]]))))
      .map((line) => `${line}\n`)
      .join('');
  }
  if (format === 'csv') {
    const lines = [columns.map((c) => csvField(c.name)).join(',')];
    for (const row of rows)
      lines.push(row.map((v) => (v === null ? '' : csvField(String(v)))).join(','));
    return `${lines.join('\r\n')}\r\n`;
  }
  const text = (v: SqlCell) => {
    const shown = terminalText(v === null ? 'NULL' : String(v));
    return shown.length > MAX_CELL_WIDTH ? `${shown.slice(0, MAX_CELL_WIDTH - 1)}…` : shown;
  };
  const header = columns.map((c) => terminalText(c.name));
  const body = rows.map((row) => row.map(text));
  const widths = header.map((h, k) => Math.max(h.length, ...body.map((cells) => cells[k].length)));
  const numeric = columns.map((c) => /INT|DOUBLE|FLOAT|DECIMAL|REAL|HUGEINT/.test(c.type));
  const line = (cells: string[]) =>
    cells
      .map((cell, k) => (numeric[k] ? cell.padStart(widths[k]) : cell.padEnd(widths[k])))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  return `${out.join('\n')}\n(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})\n`;
}
