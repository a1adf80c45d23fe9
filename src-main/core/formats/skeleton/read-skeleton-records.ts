import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { SkippedLines } from '../../model/file-format';
import { LineSkips, readJsonLines } from '../json-lines/read-json-lines';

/**
 * One line of the skeleton's file: `{"skeleton": 1, "row": "worker-0", "name": "generate",
 * "start_sec": 100.0, "end_sec": 101.5, ...}`. A copy renames these keys to its own format's;
 * foreign key names stay in this folder (DESIGN: naming).
 */
export interface SkeletonRecord {
  /** 1-based line number in the file */
  line: number;
  row: string;
  name: string;
  /** epoch seconds: converted once, here, if the file writes another unit */
  startSec: number;
  endSec: number;
  /** every other key, for the details panel */
  fields: Record<string, unknown>;
}

export interface SkeletonRead {
  records: SkeletonRecord[];
  skippedLines: SkippedLines;
  /** "3 lines skipped (first: line 2 not JSON)", or null */
  skippedNotice: string | null;
}

/** Is this parsed line one of the format's records? The sniff asks it of the first line. */
export function isSkeletonRecord(value: unknown): value is Record<string, unknown> {
  return recordProblem(value) === null;
}

/** Why a parsed line is not a record (the skipped line's reason), or null when it is one. */
function recordProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const v = value as Record<string, unknown>;
  if (v.skeleton !== 1) return 'no "skeleton": 1';
  if (typeof v.row !== 'string' || typeof v.name !== 'string') return 'no row or name';
  if (!Number.isFinite(v.start_sec) || !Number.isFinite(v.end_sec)) return 'no start_sec/end_sec';
  if ((v.end_sec as number) < (v.start_sec as number)) return 'end_sec before start_sec';
  return null;
}

/**
 * The file's records. A line that is not a record is skipped and counted (the JSON-lines reader
 * counts lines that are not JSON, too long or cut off); a file with none is a coded error.
 */
export function readSkeletonRecords(
  source: ByteSource,
  onProgress?: (bytesRead: number, records: number) => void,
  shouldCancel?: () => boolean,
): SkeletonRead {
  const skipped = new LineSkips();
  const records: SkeletonRecord[] = [];
  const lines = readJsonLines(source, skipped, {
    onProgress: (bytesRead) => onProgress?.(bytesRead, records.length),
    shouldCancel,
  });
  for (const { number, value } of lines) {
    const problem = recordProblem(value);
    if (problem !== null) {
      skipped.skip(number, problem);
      continue;
    }
    const {
      skeleton: _marker,
      row,
      name,
      start_sec,
      end_sec,
      ...fields
    } = value as Record<string, unknown>;
    records.push({
      line: number,
      row: row as string,
      name: name as string,
      startSec: start_sec as number,
      endSec: end_sec as number,
      fields,
    });
  }
  if (records.length === 0) {
    throw new FormatError(
      'skeleton/no-records',
      `${source.name} holds no skeleton record${skipped.count > 0 ? ` (${skipped.notice()})` : ''}`,
      0,
    );
  }
  return { records, skippedLines: skipped.counted(), skippedNotice: skipped.notice() };
}
