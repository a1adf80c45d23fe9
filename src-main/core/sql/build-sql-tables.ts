import { jsonText } from '../model/json-text';
import type { OpenedTrace } from '../open/opened-trace';
import { sourceText, type AttrValue } from '../model/row';
import { ITEM_KIND } from '../store/build-store';
import { PackedItemCursor } from '../rows/packed-items';
import { runDigest } from '../run/run-digest';
import { SqlTableWriter, type SqlTableData } from './sql-table';

/** One open file as its tables are made: its number in the query and the query's clock. */
export interface SqlFileInput {
  /** the file's number among the query's files (the `file` column) */
  file: number;
  name: string;
  path: string | null;
  /** the query's clock origin in the file's epoch seconds (the earliest file start) */
  originSec: number;
  trace: Pick<OpenedTrace, 'summary' | 'store' | 'samples' | 'perf' | 'rows'>;
}

/**
 * Every table of one file (sql-schema.ts), read from the store's columns and the rows' packed
 * items in place: nothing is parsed again. The join columns (samples.stale, server_requests'
 * sample) are filled by applyRunJoins once every file's tables are made.
 */
export function buildSqlTables(input: SqlFileInput): SqlTableData[] {
  const { trace } = input;
  const spanCount = countKind(trace, ITEM_KIND.span);
  const spans = new SqlTableWriter('spans', spanCount);
  const events = new SqlTableWriter('events', trace.store.itemCount - spanCount);
  const pdPhases = new SqlTableWriter('pd_phases');
  const trainer = new SqlTableWriter('trainer');
  const isTrainer = trace.summary.capabilities.trainerTimeline === true;
  const attemptsByRow = writeItems(input, spans, events, pdPhases, isTrainer ? trainer : null);
  return [
    filesTable(input),
    samplesTable(input, attemptsByRow),
    spans.finish(),
    events.finish(),
    pdPhases.finish(),
    serverRequestsTable(input),
    trainer.finish(),
    perfTable(input),
  ];
}

function countKind(trace: SqlFileInput['trace'], kind: number): number {
  const kinds = trace.store.itemKind;
  let n = 0;
  for (let i = 0; i < trace.store.itemCount; i++) if (kinds[i] === kind) n++;
  return n;
}

/** a number, or NaN (NULL) for anything else (a string index, null, a list) */
const numberOr = (value: AttrValue | undefined) =>
  typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== ''
      ? Number(value)
      : NaN;

function filesTable({ file, name, path, originSec, trace }: SqlFileInput): SqlTableData {
  const s = trace.summary;
  const t = new SqlTableWriter('files', 1);
  const at = t.addRow();
  const values: Record<string, number | string | null> = {
    file,
    name,
    path,
    format: s.format,
    bytes: s.bytes,
    rows: s.rows,
    samples: s.samples,
    spans: s.spans,
    events: s.events,
    rollout_id: numberOr(s.rolloutId),
    start_sec: s.globalStartSec === null ? NaN : s.globalStartSec - originSec,
    end_sec: s.globalEndSec === null ? NaN : s.globalEndSec - originSec,
    start_epoch: s.globalStartSec ?? NaN,
    end_epoch: s.globalEndSec ?? NaN,
    origin_epoch: originSec,
  };
  t.specs.forEach((spec, k) => t.set(at, k, values[spec.name]));
  return t.finish();
}

/**
 * Spans, events, PD phases and (a trainer timeline) trainer records, one pass over each row's
 * packed items; answers each row's attempt count (highest attempt + 1, NaN when none).
 */
function writeItems(
  { file, originSec, trace }: SqlFileInput,
  spans: SqlTableWriter,
  events: SqlTableWriter,
  pdPhases: SqlTableWriter,
  trainer: SqlTableWriter | null,
): Float64Array {
  const { store } = trace;
  const S = spans.columnIndexes;
  const E = events.columnIndexes;
  const P = pdPhases.columnIndexes;
  const T = trainer && trainer.columnIndexes;
  const attempts = new Float64Array(store.rowCount).fill(NaN);
  const cursor = new PackedItemCursor();
  for (let r = 0; r < store.rowCount; r++) {
    const packed = store.rows[r];
    const rowId = packed.row_id;
    const offset = store.rowItemOffset[r];
    cursor.reset(packed.packed);
    for (let n = 0; cursor.next(); n++) {
      const parent = store.itemParent[offset + n];
      const parentName = parent >= 0 ? store.strings[store.itemName[offset + parent]] : null;
      const attributes = attributesOf(cursor);
      if (cursor.attempt !== null && !(attempts[r] > cursor.attempt)) {
        attempts[r] = cursor.attempt + 1;
      }
      if (cursor.isSpan) {
        const ongoing = cursor.state === 'open_span';
        const at = spans.addRow();
        const set = (k: number, v: number | boolean | string | null) => spans.set(at, k, v);
        set(S.file, file);
        set(S.row, rowId);
        set(S.item, n);
        set(S.name, cursor.name);
        set(S.lane, cursor.lane);
        set(S.depth, cursor.depth);
        set(S.start_sec, cursor.start - originSec);
        set(S.end_sec, cursor.displayEnd - originSec);
        set(S.duration_sec, cursor.displayEnd - cursor.start);
        set(S.start_epoch, cursor.start);
        set(S.end_epoch, cursor.displayEnd);
        set(S.attempt, cursor.attempt);
        set(S.ongoing, ongoing);
        const why = ongoing ? cursor.attr(1, 'clipped_by') : undefined;
        set(S.ongoing_why, typeof why === 'string' ? why : null);
        set(S.parent_item, parent >= 0 ? parent : null);
        set(S.parent_name, parentName);
        set(S.error, cursor.extra('error') === true);
        set(S.pd_role, cursor.pdRole);
        set(S.attributes, attributes);
        for (let p = 0; p < cursor.pdPhaseCount; p++) {
          const ph = pdPhases.addRow();
          pdPhases.set(ph, P.file, file);
          pdPhases.set(ph, P.row, rowId);
          pdPhases.set(ph, P.item, n);
          pdPhases.set(ph, P.role, cursor.pdRole);
          pdPhases.set(ph, P.phase_index, p);
          pdPhases.set(ph, P.phase, cursor.pdPhaseName(p));
          pdPhases.set(ph, P.duration_sec, cursor.pdPhaseDuration(p));
          pdPhases.set(ph, P.span_duration_sec, cursor.pdParentDuration);
        }
      } else {
        const at = events.addRow();
        const set = (k: number, v: number | boolean | string | null) => events.set(at, k, v);
        set(E.file, file);
        set(E.row, rowId);
        set(E.item, n);
        set(E.name, cursor.name);
        set(E.lane, cursor.lane);
        set(E.depth, cursor.depth);
        set(E.time_sec, cursor.start - originSec);
        set(E.time_epoch, cursor.start);
        set(E.attempt, cursor.attempt);
        set(E.orphan, cursor.state === 'orphan_end');
        set(E.parent_item, parent >= 0 ? parent : null);
        set(E.parent_name, parentName);
        set(E.attributes, attributes);
      }
      if (T !== null && trainer !== null) {
        const at = trainer.addRow();
        const set = (k: number, v: number | boolean | string | null) => trainer.set(at, k, v);
        const attr = (key: string) => numberOr(cursor.attr(0, key));
        set(T.file, file);
        set(T.row, rowId);
        set(T.item, n);
        set(T.process, sourceText(packed.source));
        set(T.operation, cursor.name);
        set(T.kind, cursor.isSpan ? 'span' : 'event');
        set(T.start_sec, cursor.start - originSec);
        set(T.end_sec, cursor.displayEnd - originSec);
        set(T.duration_sec, cursor.displayEnd - cursor.start);
        set(T.start_epoch, cursor.start);
        set(T.end_epoch, cursor.displayEnd);
        set(T.rank, attr('rank'));
        set(T.global_step, attr('global_step'));
        set(T.rollout_id, attr('rollout_id'));
        set(T.weight_version, attr('weight_version'));
        set(T.message_bytes, attr('message_bytes'));
        set(T.attributes, attributes);
      }
    }
  }
  return attempts;
}

/** An item's attributes as one JSON object: a span's start attrs, then its end attrs. */
function attributesOf(cursor: PackedItemCursor): string {
  const object: Record<string, AttrValue> = {};
  for (let section = 0; section < cursor.sectionCount; section++) {
    const keys = cursor.sectionKeys(section);
    for (let k = 0; k < keys.length; k++) object[keys[k]] = cursor.attrAt(section, k);
  }
  return jsonText(object);
}

function samplesTable(
  { file, originSec, trace }: SqlFileInput,
  attemptsByRow: Float64Array,
): SqlTableData {
  const { store, samples } = trace;
  const t = new SqlTableWriter('samples', samples.count);
  const k = t.columnIndexes;
  const resumed = new Set(trace.perf.rollout.resumed.map((r) => r.rowId));
  for (let rowId = 0; rowId < samples.count; rowId++) {
    const facts = samples.facts[rowId] ?? null;
    const at = t.addRow();
    const set = (col: number, v: number | boolean | string | null) => t.set(at, col, v);
    set(k.file, file);
    set(k.row, rowId);
    set(k.group_index, typeof facts?.groupIndex === 'number' ? facts.groupIndex : null);
    set(k.status, facts?.status ?? null);
    set(k.reward, facts?.reward ?? null);
    set(k.response_length, facts?.responseLength ?? null);
    set(k.start_rollout_id, facts?.startRolloutId ?? null);
    set(k.weight_versions, facts === null ? null : JSON.stringify(facts.weightVersions));
    set(k.prompt_hash, facts?.promptHash ?? null);
    set(k.resumed, resumed.has(rowId));
    set(k.stale, facts === null ? null : false);
    const r = store.rowIndexById.get(rowId);
    set(k.traced, r !== undefined);
    if (r === undefined) continue;
    const start = store.rowStart[r] + store.globalStartSec;
    const end = store.rowEnd[r] + store.globalStartSec;
    set(k.sample_index, store.rowSampleIndex[r]);
    set(k.start_sec, start - originSec);
    set(k.end_sec, end - originSec);
    set(k.duration_sec, store.rows[r].duration);
    set(k.start_epoch, store.rows[r].start);
    set(k.end_epoch, store.rows[r].end);
    set(k.attempts, attemptsByRow[r]);
    set(k.span_count, store.rows[r].closed_span_count + store.rows[r].open_span_count);
  }
  return t.finish();
}

const STAGE_COLUMNS: Record<string, string> = {
  router: 'router_sec',
  tokenizer: 'tokenizer_sec',
  queue: 'queue_sec',
  prefill: 'prefill_sec',
  'KV transfer': 'transfer_sec',
  decode: 'decode_sec',
};

/** The file's SGLang requests as the run joins see them (core/run/run-digest.ts). */
function serverRequestsTable({ file, originSec, trace }: SqlFileInput): SqlTableData {
  const t = new SqlTableWriter('server_requests');
  if (trace.summary.capabilities.samples || trace.summary.capabilities.trainerTimeline) {
    return t.finish();
  }
  const { serverRequests } = runDigest(trace);
  for (const request of serverRequests) {
    const at = t.addRow();
    const values: Record<string, number | boolean | string | null> = {
      file,
      row: request.rowId,
      item: request.itemIndex,
      rid: request.rid,
      trace_id: request.traceId,
      start_sec: request.startSec - originSec,
      end_sec: request.endSec - originSec,
      duration_sec: request.endSec - request.startSec,
      start_epoch: request.startSec,
      end_epoch: request.endSec,
      error: request.error,
    };
    for (const column of Object.values(STAGE_COLUMNS)) values[column] = 0;
    for (const stage of request.stages) {
      const column = STAGE_COLUMNS[stage.stage];
      if (column !== undefined) (values[column] as number) += stage.durationSec;
    }
    t.specs.forEach((spec, k) => {
      if (spec.name in values) t.set(at, k, values[spec.name]);
    });
  }
  return t.finish();
}

function perfTable({ file, trace }: SqlFileInput): SqlTableData {
  const entries = Object.entries(trace.perf.perf);
  const t = new SqlTableWriter('perf', entries.length);
  for (const [key, value] of entries) {
    const at = t.addRow();
    t.set(at, 0, file);
    t.set(at, 1, key);
    t.set(at, 2, value);
  }
  return t.finish();
}
