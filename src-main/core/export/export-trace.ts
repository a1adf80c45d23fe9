import type { ExportFormat } from '../api/trace-api';
import type { OpenedTrace } from '../open/open-trace-file';
import { buildRowsCsv } from './csv-export';
import { buildPerfettoTrace, writePerfettoJson } from './perfetto-export';

/** A file's rows, exported: what the CLI writes and what the UI saves. */
export interface TraceExport {
  fileName: string;
  mime: string;
  bytes: Uint8Array;
}

/** The name the UI saves an export under: the file's stem, then what the export is. */
export function exportFileName(name: string, format: ExportFormat): string {
  const stem = name.replace(/\.(pt|pth|jsonl|json)$/i, '');
  return format === 'csv' ? `${stem}.rows.csv` : `${stem}.perfetto.json.gz`;
}

/**
 * The one export of the CLI (`export --format`) and of the UI (exportTrace, in the file's
 * worker): a Perfetto / chrome://tracing trace, gzipped when the file name ends in .gz, or
 * one CSV line per row.
 */
export function exportTrace(
  trace: Pick<OpenedTrace, 'summary' | 'rows'>,
  format: ExportFormat,
  fileName = exportFileName(trace.summary.name, format),
): TraceExport {
  if (format === 'csv') {
    return { fileName, mime: 'text/csv', bytes: Buffer.from(buildRowsCsv(trace.rows), 'utf8') };
  }
  const gzip = fileName.endsWith('.gz');
  const perfetto = buildPerfettoTrace([
    { name: trace.summary.name, rows: trace.rows, globalStart: trace.summary.globalStartSec },
  ]);
  return {
    fileName,
    mime: gzip ? 'application/gzip' : 'application/json',
    bytes: writePerfettoJson(perfetto, gzip),
  };
}
