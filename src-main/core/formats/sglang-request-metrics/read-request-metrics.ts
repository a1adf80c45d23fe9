import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { SkippedLines } from '../../model/file-format';
import type { RequestMetricsRecord } from '../../model/run-records';
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
  /** a last line without its newline that did not parse (a file cut off while written) */
  cutOffLines: number;
}

/**
 * The records of one hourly set of request-metrics files, oldest first: a line at a time, the
 * prompt strings walked past (their byte ranges kept). A line that is not a record is skipped
 * with its code, file and line; the rest opens. A last line without its newline that does not
 * parse was cut off while written: skipped and counted as such. Each record's fields other than
 * request_parameters go to `onRecord` (its row) and are let go.
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
  const skipped: SkippedLines = { count: 0, examples: [] };
  let cutOffLines = 0;
  let doneBefore = 0;
  const skip = (source: ByteSource, lineNo: number, code: string, reason: string) => {
    skipped.count++;
    if (skipped.examples.length < MAX_EXAMPLES)
      skipped.examples.push({
        line: lineNo,
        reason: `${code}: ${source.name} line ${lineNo}: ${reason}`,
      });
  };
  // one chunk buffer for every read: a line's bytes are decoded or copied before the next read,
  // and a fresh 8 MiB buffer a read left peak memory to when the collector got to them (at 250
  // MB of files the peak was 185 MB, 0.73x the files, with 40 MB of heap in use). A Buffer, not
  // a Uint8Array: its indexOf (newlines, quotes) is memchr, a Uint8Array's a loop 2x slower
  const scratch = Buffer.allocUnsafe(chunkBytes);
  sources.forEach((source, fileIndex) => {
    let lineNo = 0;
    const take = (line: Uint8Array, at: number, last: boolean) => {
      lineNo++;
      let end = line.length;
      while (end > 0 && (line[end - 1] === 0x0d || line[end - 1] === 0x20)) end--;
      if (end === 0) return;
      const body = end === line.length ? line : line.subarray(0, end);
      const parsed = parseMetricsLine(body);
      const record =
        parsed instanceof LineError ? parsed : metricsRecord(parsed.meta, records.length);
      if (record instanceof LineError) {
        if (last) {
          cutOffLines++;
          skip(
            source,
            lineNo,
            'request-metrics/cut-off',
            'the last line ends without a newline and is not whole (cut off while written)',
          );
        } else skip(source, lineNo, record.code, record.reason);
        return;
      }
      const meta = (parsed as { meta: Record<string, unknown> }).meta;
      const params = (parsed as { params: { start: number; end: number } | null }).params;
      const k = records.length * PLACE_STRIDE;
      if (k + PLACE_STRIDE > places.length) {
        const grown = new Float64Array(places.length * 2);
        grown.set(places);
        places = grown;
      }
      places.set([fileIndex, at, body.length, lineNo, params?.start ?? -1, params?.end ?? -1], k);
      records.push(record);
      onRecord(record, meta);
    };
    let carry: Uint8Array | null = null;
    let carryAt = 0;
    for (let offset = 0; offset < source.size;) {
      if (shouldCancel?.()) throw new FormatError('open/cancelled', 'opening was cancelled');
      const chunk = source.read(offset, Math.min(chunkBytes, source.size - offset), scratch);
      if (chunk.length === 0) break;
      let from = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, from);
        if (newline < 0) break;
        if (carry !== null) {
          take(concat(carry, chunk.subarray(0, newline)), carryAt, false);
          carry = null;
        } else take(chunk.subarray(from, newline), offset + from, false);
        from = newline + 1;
      }
      if (from < chunk.length) {
        const rest = chunk.subarray(from);
        if (carry === null) {
          // a copy: the chunk is read over next (a Buffer's slice() is a view, not a copy)
          carry = new Uint8Array(rest);
          carryAt = offset + from;
        } else carry = concat(carry, rest);
      }
      offset += chunk.length;
      onProgress?.(doneBefore + offset, records.length);
    }
    if (carry !== null) take(carry, carryAt, true);
    doneBefore += source.size;
  });
  return {
    records,
    places: places.slice(0, records.length * PLACE_STRIDE),
    skippedLines: skipped,
    cutOffLines,
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
