import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { SkippedLines } from '../../model/file-format';
import { cutDeepValues } from '../../model/cut-deep-values';
import { MAX_TIME_SEC, timeInRange } from '../../model/time-range';
import { LineSkips, readJsonLines, sniffJsonLine } from '../json-lines/read-json-lines';

/**
 * One line of slime's trainer communication timeline (TRACE_MODEL section 7), as written by
 * `communication_timeline.py` (`json.dumps(record, sort_keys=True)`). Only the keys the explorer
 * needs are typed; every other key stays in `fields` for details.
 */
export interface TimelineRecord {
  /** 1-based line number in the file */
  line: number;
  schemaVersion: number;
  role: string;
  rank: number;
  /** its (role, rank): an index into TimelineRead's `processes` */
  process: number;
  sequenceId: number;
  operation: string;
  recordType: 'span' | 'event';
  /** epoch seconds: api_launch_timestamp_ns, and completion_timestamp_ns for spans */
  startSec: number;
  endSec: number;
  fields: Record<string, unknown>;
}

/** A trainer process: what a record's role and rank name. */
export interface TimelineProcess {
  role: string;
  rank: number;
}

export interface TimelineRead {
  records: TimelineRecord[];
  /** each (role, rank) the records name, in the order first met */
  processes: TimelineProcess[];
  skippedLines: SkippedLines;
  /** "3 lines skipped (first: line 2 not JSON)", or null */
  skippedNotice: string | null;
  /**
   * sequence_id values missing between the first and last record of a (role, rank): the first
   * 1000, ascending
   */
  sequenceHoles: number[];
  /** how many sequence_id values are missing in all */
  sequenceHoleCount: number;
  schemaVersions: number[];
  /** values in records nested too deep, replaced by a note (model/cut-deep-values) */
  deepValuesCut: number;
}

/** Epoch ns (a JSON number, ~1.8e18: already rounded to ~256 ns by JSON.parse) as seconds. */
function nsToSec(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value / 1e9;
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    // exact split: whole seconds, then the nanoseconds
    return Number(value.slice(0, -9) || '0') + Number(value.slice(-9)) / 1e9;
  }
  return null;
}

/** Why a parsed line is not a timeline record, or null when it is one. */
function recordProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const v = value as Record<string, unknown>;
  if (typeof v.operation !== 'string') return 'no operation';
  if (v.record_type !== 'span' && v.record_type !== 'event') return 'record_type not span/event';
  const start = startOf(v);
  if (start === null) return 'no timestamp';
  const completion = nsToSec(v.completion_timestamp_ns);
  if (!timeInRange(start) || (completion !== null && !timeInRange(completion))) {
    return `a timestamp out of range (over ${MAX_TIME_SEC} s from the epoch)`;
  }
  return null;
}

/**
 * The longest line read: past it a line is skipped unread (its bytes are counted, never held),
 * so that one runaway record (a 100 MB metadata blob took 3.4 GB as one string and its parse)
 * costs nothing. slime's records are well under a kilobyte.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Reads the JSON lines of one timeline file (the shared walk: chunks, CRLF, a byte-order mark,
 * lines not JSON, too long or cut off skipped and counted). A line that is not a record is
 * skipped and counted too (a crash leaves a cut-off last line: slime appends, never rewrites);
 * a file with no record at all is an error.
 */
export function parseTimelineRecords(
  source: ByteSource,
  onProgress?: (bytesRead: number, records: number) => void,
  shouldCancel?: () => boolean,
): TimelineRead {
  const records: TimelineRecord[] = [];
  const skipped = new LineSkips();
  const processes = new ProcessNumbers();
  let deepValuesCut = 0;
  const lines = readJsonLines(source, skipped, {
    maxLineBytes: MAX_LINE_BYTES,
    shouldCancel,
    onProgress: (bytesRead) => onProgress?.(bytesRead, records.length),
  });
  for (const { number, value } of lines) {
    const problem = recordProblem(value);
    if (problem !== null) {
      skipped.skip(number, problem, 'slime-comm-timeline/not-a-record');
      continue;
    }
    const fields = value as Record<string, unknown>;
    deepValuesCut += cutDeepValues(fields);
    records.push(toRecord(fields, number, processes));
  }
  if (records.length === 0) {
    const first = skipped.examples[0];
    throw new FormatError(
      'slime-comm-timeline/no-records',
      `the file holds no timeline record${skipped.count > 0 ? ` (${skipped.count} lines skipped, first: line ${first.line} ${first.reason})` : ''}`,
      0,
    );
  }
  return {
    records,
    deepValuesCut,
    skippedLines: skipped.counted(),
    skippedNotice: skipped.notice(),
    processes: processes.list,
    ...holeFields(sequenceHoles(records, processes.list.length)),
    schemaVersions: [...new Set(records.map((r) => r.schemaVersion))].sort((a, b) => a - b),
  };
}

/** When a record starts: its API launch; else (a record written without it) its completion. */
function startOf(v: Record<string, unknown>): number | null {
  return (
    nsToSec(v.api_launch_timestamp_ns) ??
    nsToSec(v.api_return_timestamp_ns) ??
    nsToSec(v.completion_timestamp_ns)
  );
}

/**
 * Numbers each (role, rank) as first met: a map per role of ranks, so that a million ranks cost
 * a map entry each (a JSON key string per record, and its list, were most of the memory).
 */
class ProcessNumbers {
  readonly list: TimelineProcess[] = [];
  private readonly byRole = new Map<string, Map<number, number>>();

  numberOf(role: string, rank: number): number {
    let ranks = this.byRole.get(role);
    if (ranks === undefined) this.byRole.set(role, (ranks = new Map()));
    let number = ranks.get(rank);
    if (number === undefined) {
      number = this.list.push({ role, rank }) - 1;
      ranks.set(rank, number);
    }
    return number;
  }
}

function toRecord(
  v: Record<string, unknown>,
  line: number,
  processes: ProcessNumbers,
): TimelineRecord {
  const startSec = startOf(v)!;
  const recordType = v.record_type as 'span' | 'event';
  const completion = nsToSec(v.completion_timestamp_ns);
  const role = typeof v.role === 'string' ? v.role : 'trainer';
  const rank = typeof v.rank === 'number' ? v.rank : 0;
  return {
    line,
    schemaVersion: typeof v.schema_version === 'number' ? v.schema_version : 0,
    role,
    rank,
    process: processes.numberOf(role, rank),
    // ids are counters: one that is not a whole number from 0 to 2^53 (1.7e308 made the holes
    // count "Infinity") is read as missing
    sequenceId:
      Number.isSafeInteger(v.sequence_id) && (v.sequence_id as number) >= 0
        ? (v.sequence_id as number)
        : -1,
    operation: v.operation as string,
    recordType,
    startSec,
    endSec:
      recordType === 'span' && completion !== null ? Math.max(startSec, completion) : startSec,
    fields: v,
  };
}

/** How many holes are listed: a sequence_id of 10^9 in a broken line must not list them all. */
const HOLES_LISTED = 1000;

/**
 * sequence_id values skipped inside each (role, rank): a cancelled span leaves one (normal).
 * The first HOLES_LISTED in ascending order, and how many ids are missing in all. Each
 * process's ids are sorted side by side in one typed array (a list per process cost an object
 * and a growing array for each of a million ranks).
 */
function sequenceHoles(
  records: TimelineRecord[],
  processCount: number,
): { listed: number[]; count: number } {
  // counting sort of the ids by process: process p's from starts[p] to starts[p + 1]
  const starts = new Int32Array(processCount + 1);
  for (const r of records) if (r.sequenceId >= 0) starts[r.process + 1]++;
  for (let p = 0; p < processCount; p++) starts[p + 1] += starts[p];
  const ids = new Float64Array(starts[processCount]);
  const at = starts.slice(0, processCount);
  for (const r of records) if (r.sequenceId >= 0) ids[at[r.process]++] = r.sequenceId;
  // gaps as ranges [from, to]: their length never becomes an array
  const gaps: [number, number][] = [];
  for (let p = 0; p < processCount; p++) {
    const own = ids.subarray(starts[p], starts[p + 1]).sort();
    for (let i = 1; i < own.length; i++) {
      if (own[i] - own[i - 1] > 1) gaps.push([own[i - 1] + 1, own[i] - 1]);
    }
  }
  gaps.sort((a, b) => a[0] - b[0]);
  const listed: number[] = [];
  let count = 0;
  let covered = -Infinity; // ids up to here are counted (gaps of several ranks overlap)
  for (const [from, to] of gaps) {
    const start = Math.max(from, covered + 1);
    if (start > to) continue;
    count += to - start + 1;
    for (let id = start; id <= to && listed.length < HOLES_LISTED; id++) listed.push(id);
    covered = to;
  }
  return { listed, count };
}

function holeFields(holes: { listed: number[]; count: number }) {
  return { sequenceHoles: holes.listed, sequenceHoleCount: holes.count };
}

/**
 * Is this head a timeline file? Its first line is a JSON object with `schema_version`,
 * `framework: "slime"`, `sequence_id` and `operation`. Never throws.
 */
export function sniffTimeline(head: Uint8Array): boolean {
  return sniffJsonLine(head, (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const v = value as Record<string, unknown>;
    return (
      v.framework === 'slime' &&
      'schema_version' in v &&
      'sequence_id' in v &&
      typeof v.operation === 'string'
    );
  });
}
