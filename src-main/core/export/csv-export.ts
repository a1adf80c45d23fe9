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
 * One line per row after a header, RFC 4180 quoting. Text cells starting with = + - @ get a
 * leading apostrophe so a spreadsheet shows them instead of running them as formulas.
 */
export function buildRowsCsv(rows: readonly RowFields[]): string {
  const lines = [COLUMNS.join(',')];
  for (const row of rows) lines.push(COLUMNS.map((c) => cell(row[c] as AttrValue)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function cell(value: AttrValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
