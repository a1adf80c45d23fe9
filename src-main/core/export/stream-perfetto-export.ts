import type { ByteSource } from '../bytes/byte-source';
import { FormatError } from '../bytes/format-error';
import type { OpenProgressReport } from '../formats/format-descriptor';
import type { FormatList } from '../formats/registry';
import { findTraceFormat } from '../open/open-trace-file';
import { PerfettoJsonWriter, perfettoOrigin } from './perfetto-export';

/** Where a streamed export goes: opened only once the first read found the file sound. */
export interface StreamedExportTarget {
  open(): void;
  /** synchronous: it is called from inside the format's reading loop */
  write(text: string): void;
}

export interface StreamedExportOptions {
  /** the formats to read with; FORMATS when not given */
  formats?: FormatList;
  onProgress?: (pass: 1 | 2, progress: OpenProgressReport) => void;
  shouldCancel?: () => boolean;
  /** called once the file is known to stream, before its first read */
  onStreaming?: () => void;
  /** about how much text each write gets (PerfettoJsonWriter's 1 MiB when not given) */
  chunkChars?: number;
}

/**
 * The Perfetto export of one file (or source group) whose format builds rows one at a time
 * (FormatDescriptor.streamRows), never holding all its rows: a row's events depend only on the
 * row, its index and the file's origin, so the file is read twice. The first read finds the
 * origin (the smallest row start) and keeps nothing else; the second hands each row's events
 * to `target` as soon as the row is built. The bytes are those of the whole-file export
 * (exportTraceStream). False, with nothing opened or written, for a format without streamRows
 * and for a file whose rows had to start over in the first read (a dump read again keeping
 * every value: all of it is in memory then anyway): the caller exports the file opened whole.
 */
export function streamPerfettoExport(
  files: ByteSource[],
  target: StreamedExportTarget,
  options: StreamedExportOptions = {},
): boolean {
  const { sources, format, name } = findTraceFormat(files, options.formats);
  if (!format.streamRows) return false;
  options.onStreaming?.();
  const readOptions = (pass: 1 | 2) => ({
    onProgress: (progress: OpenProgressReport) => options.onProgress?.(pass, progress),
    shouldCancel: options.shouldCancel,
  });
  let start = Infinity;
  let rowCount = 0;
  let restarted = false;
  format.streamRows(sources, readOptions(1), {
    row(row) {
      // minOf's comparison, as the store finds FileSummary.globalStartSec
      if (row.start < start) start = row.start;
      rowCount++;
    },
    restart() {
      restarted = true;
      start = Infinity;
      rowCount = 0;
    },
  });
  if (restarted) return false;
  const origin = perfettoOrigin(rowCount === 0 ? null : start, []);
  target.open();
  const writer = new PerfettoJsonWriter(
    name,
    origin,
    (text) => target.write(text),
    options.chunkChars,
  );
  let written = 0;
  format.streamRows(sources, readOptions(2), {
    row(row) {
      writer.row(row);
      written++;
    },
    restart() {
      throw fileChanged('its rows started over on the second read, not on the first');
    },
  });
  if (written !== rowCount) {
    throw fileChanged(`${written} rows on the second read, ${rowCount} on the first`);
  }
  writer.end();
  return true;
}

function fileChanged(what: string): FormatError {
  return new FormatError('export/file-changed', `the file changed while it was exported: ${what}`);
}
