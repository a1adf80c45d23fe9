import type { ExportFormat } from '../api/trace-api';
import type { OpenedTrace } from '../open/open-trace-file';
import { buildRowsCsv } from './csv-export';
import { gzipSync } from 'node:zlib';
import { perfettoJsonChunks } from './perfetto-export';

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

/** An export as text chunks, for writing as it is made: gzip when the name ends in .gz. */
export interface TraceExportStream {
  fileName: string;
  mime: string;
  gzip: boolean;
  chunks: Iterable<string>;
}

/**
 * The one export of the CLI (`export --format`, streamed to its file) and of the UI
 * (exportTrace, in the file's worker): a Perfetto / chrome://tracing trace, gzipped when the
 * file name ends in .gz, or one CSV line per row.
 */
export function exportTraceStream(
  trace: Pick<OpenedTrace, 'summary' | 'rows'>,
  format: ExportFormat,
  fileName = exportFileName(trace.summary.name, format),
): TraceExportStream {
  if (format === 'csv') {
    return { fileName, mime: 'text/csv', gzip: false, chunks: [buildRowsCsv(trace.rows)] };
  }
  const gzip = fileName.endsWith('.gz');
  return {
    fileName,
    mime: gzip ? 'application/gzip' : 'application/json',
    gzip,
    chunks: perfettoJsonChunks([
      { name: trace.summary.name, rows: trace.rows, globalStart: trace.summary.globalStartSec },
    ]),
  };
}

/** The export as one buffer (what the UI saves). */
export function exportTrace(
  trace: Pick<OpenedTrace, 'summary' | 'rows'>,
  format: ExportFormat,
  fileName = exportFileName(trace.summary.name, format),
): TraceExport {
  const stream = exportTraceStream(trace, format, fileName);
  const parts: Buffer[] = [];
  for (const chunk of stream.chunks) parts.push(Buffer.from(chunk, 'utf8'));
  const text = Buffer.concat(parts);
  return { fileName, mime: stream.mime, bytes: stream.gzip ? gzipSync(text) : text };
}
