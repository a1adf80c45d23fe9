import type { ByteSource } from '../../bytes/byte-source';
import type { SkippedLines } from '../../model/file-format';
import type { RequestMetricsRecord } from '../../model/run-records';
import { LineSkips, lineBuffer, readLines } from '../json-lines/read-json-lines';
import { LineError, metricsRecord, parseMetricsLine } from './parse-metrics-line';

/** Bytes read at a time: a line longer than this (a huge prompt) is carried over pieces. */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Skipped lines kept as examples (the count is of all). */
const MAX_EXAMPLES = 20;
/** file index, line start, line length, line number, params start, params end (in the line) */
export const PLACE_STRIDE = 6;

export interface ReadMetrics {
  records: RequestMetricsRecord[];
  /** where each record's line lies (PLACE_STRIDE numbers a record) */
  places: Float64Array;
  skippedLines: SkippedLines;
  /** "3 lines skipped (first: request-metrics/no-id: x.log line 2: ...)", or null */
  skippedNotice: string | null;
  /** a last line without its newline that did not parse (a file cut off while written) */
  cutOffLines: number;
}

/**
 * The records of one hourly set of request-metrics files, oldest first: a line at a time (the
 * shared JSON-lines walk: chunks, CRLF, a byte-order mark, lines past 64 MiB skipped unread),
 * the prompt strings walked past (their byte ranges kept). A line that is not a record is
 * skipped with its code, file and line; the rest opens. A last line without its newline that
 * does not parse was cut off while written: skipped and counted as such. Each record's fields
 * other than request_parameters go to `onRecord` (its row) and are let go.
 */
export function readRequestMetrics(
  sources: ByteSource[],
  onRecord: (record: RequestMetricsRecord, meta: Record<string, unknown>) => void,
  onProgress?: (bytesRead: number, records: number) => void,
  shouldCancel?: () => boolean,
  chunkBytes = CHUNK_BYTES,
): ReadMetrics {
  const records: RequestMetricsRecord[] = [];
  let places = new Float64Array(1024 * PLACE_STRIDE);
  let fileName = '';
  const skipped = new LineSkips(
    MAX_EXAMPLES,
    (line, reason, code) => `${code}: ${fileName} line ${line}: ${reason}`,
  );
  let cutOffLines = 0;
  let doneBefore = 0;
  // one buffer for every chunk of every file (each line is parsed before the next is read): a
  // fresh 8 MiB buffer a read left peak memory to when the collector got to them (at 250 MB of
  // files the peak was 185 MB, 0.73x the files, with 40 MB of heap in use)
  const buffer = lineBuffer(Math.max(0, ...sources.map((s) => s.size)), chunkBytes);
  sources.forEach((source, fileIndex) => {
    fileName = source.name;
    for (const line of readLines(source, skipped, {
      chunkBytes,
      oneBuffer: buffer,
      shouldCancel,
      onProgress: (bytesRead) => onProgress?.(doneBefore + bytesRead, records.length),
    })) {
      let end = line.bytes.length;
      while (end > 0 && (line.bytes[end - 1] === 0x20 || line.bytes[end - 1] === 0x0d)) end--;
      if (end === 0) continue;
      const body = end === line.bytes.length ? line.bytes : line.bytes.subarray(0, end);
      const parsed = parseMetricsLine(body);
      const record =
        parsed instanceof LineError ? parsed : metricsRecord(parsed.meta, records.length);
      if (record instanceof LineError) {
        if (!line.terminated) {
          cutOffLines++;
          skipped.skip(
            line.number,
            'the last line ends without a newline and is not whole (cut off while written)',
            'request-metrics/cut-off',
          );
        } else skipped.skip(line.number, record.reason, record.code);
        continue;
      }
      const { meta, params } = parsed as Exclude<typeof parsed, LineError>;
      const k = records.length * PLACE_STRIDE;
      if (k + PLACE_STRIDE > places.length) {
        const grown = new Float64Array(places.length * 2);
        grown.set(places);
        places = grown;
      }
      places.set(
        [fileIndex, line.offset, body.length, line.number, params?.start ?? -1, params?.end ?? -1],
        k,
      );
      records.push(record);
      onRecord(record, meta);
    }
    doneBefore += source.size;
  });
  return {
    records,
    places: places.slice(0, records.length * PLACE_STRIDE),
    skippedLines: skipped.counted(),
    skippedNotice: skipped.notice(),
    cutOffLines,
  };
}
