import { jsonText } from '../model/json-text';
import type { AttrValue, RowFields } from '../model/row';

const COLUMNS = [
  'row_id',
  'sample_index',
  'group_index',
  'source',
  'status',
  'label',
  'reward',
  'trace_id',
  'attempt',
  'start',
  'end',
  'duration',
  'lane_count',
  'item_count',
  'closed_span_count',
  'open_span_count',
  'point_event_count',
  'orphan_count',
  'total_response_length',
  'max_response_length',
] as const;

/**
 * One line per row after a header, RFC 4180 quoting. A text cell a spreadsheet could run as a
 * formula (it starts with = + - @, tab or CR) gets a leading apostrophe and is quoted whole, as
 * OWASP's CSV-injection advice says. A spreadsheet may also split on ; or tab, or start a cell
 * after a quote: inside a cell, such a character followed by a formula start gets the apostrophe
 * too (`x;'=1+1`), and the cell is quoted. The CSV is for reading in a spreadsheet; the
 * Perfetto export keeps every value exactly.
 */
export function buildRowsCsv(rows: readonly RowFields[]): string {
  const lines = [COLUMNS.join(',')];
  for (const row of rows) lines.push(COLUMNS.map((c) => csvCell(row[c] as AttrValue)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** a character after which some spreadsheet starts a new cell, before a formula start */
const INNER_FORMULA = /([",;\t\r\n])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** One CSV cell: numbers and booleans as they are, text (and JSON of anything else) made safe. */
export function csvCell(value: AttrValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const raw = typeof value === 'string' ? value : jsonText(value);
  const text = raw.replace(INNER_FORMULA, "$1'");
  const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
  if (FORMULA_START.test(text)) return quoted(`'${text}`);
  return NEEDS_QUOTES.test(text) ? quoted(text) : text;
}
