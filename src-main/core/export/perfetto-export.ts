import { jsonText } from '../model/json-text';
import { minOf } from '../model/extent';
import { gzipSync } from 'node:zlib';
import { sourceText, type PackedRow, type Row, type RowFields, type SpanItem } from '../model/row';
import { unpackRow } from '../rows/packed-items';

export interface TraceEvent {
  name: string;
  /** s/f: a flow (an arrow) from the slice around its start to the slice around its end */
  ph: 'X' | 'b' | 'e' | 'i' | 'M' | 's' | 'f';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  s?: 't';
  /** a flow end binds to the slice enclosing it */
  bp?: 'e';
  id?: string;
  cat?: string;
  args?: Record<string, unknown>;
}

export interface PerfettoTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
}

const us = (sec: number) => Math.round(sec * 1e9) / 1e3;

/**
 * Trace Event Format for ui.perfetto.dev and chrome://tracing: one process per file, one
 * thread per row (`#index source`), microseconds from each file's rollout start; spans as
 * complete events where they nest on their thread, as async pairs where they overlap; instant
 * events as `i`; PD phases as nested slices inside their request.
 */
export function buildPerfettoTrace(files: PerfettoFile[]): PerfettoTrace {
  const out: TraceEvent[] = [];
  for (const events of perfettoEventBatches(files)) out.push(...events);
  return { traceEvents: out, displayTimeUnit: 'ms' };
}

export interface PerfettoFile {
  name: string;
  rows: readonly PackedRow[];
  globalStart: number | null;
}

/**
 * The same trace as JSON text, a chunk of about `chunkChars` at a time: exactly the bytes of
 * `JSON.stringify(buildPerfettoTrace(files))`, without holding every event (100k samples are
 * millions of events) or the whole text at once.
 */
export function* perfettoJsonChunks(
  files: PerfettoFile[],
  chunkChars = 1 << 20,
): Generator<string, void, void> {
  const text = new EventsText();
  for (const events of perfettoEventBatches(files)) {
    // checked per event: one row of a single-process trace is millions of events, more text
    // than a string can hold
    for (const event of events) {
      text.add(event);
      if (text.length >= chunkChars) yield text.take();
    }
  }
  yield text.end();
}

/**
 * The Perfetto JSON of one file whose rows come one at a time (FormatDescriptor.streamRows):
 * `write` gets the text in chunks of about `chunkChars`, and their bytes are exactly
 * perfettoJsonChunks' of the same rows, given `origin` (perfettoOrigin of all of them).
 */
export class PerfettoJsonWriter {
  private readonly text = new EventsText();
  private readonly ids = { asyncId: 0 };
  private tid = 0;

  constructor(
    name: string,
    private readonly origin: number,
    private readonly write: (text: string) => void,
    private readonly chunkChars = 1 << 20,
  ) {
    for (const event of processEvents(name, 1)) this.text.add(event);
  }

  row(row: Row): void {
    for (const event of rowEvents(row, 1, ++this.tid, this.origin, this.ids)) {
      this.text.add(event);
      if (this.text.length >= this.chunkChars) this.write(this.text.take());
    }
  }

  end(): void {
    this.write(this.text.end());
  }
}

/**
 * Where a file's microseconds count from: its rollout start (the smallest row start,
 * FileSummary.globalStartSec, null for no rows), else 0 or the earliest row start if earlier.
 */
export function perfettoOrigin(globalStart: number | null, rows: readonly RowFields[]): number {
  return (
    globalStart ??
    Math.min(
      minOf(rows, (r) => r.start),
      0,
    )
  );
}

/** The trace's JSON text as events are added: `{"traceEvents":[` ... `],"displayTimeUnit"...}`. */
class EventsText {
  private text = '{"traceEvents":[';
  private first = true;

  get length(): number {
    return this.text.length;
  }

  add(event: TraceEvent): void {
    this.text += (this.first ? '' : ',') + jsonText(event);
    this.first = false;
  }

  /** the text so far, which is then no longer kept */
  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }

  /** the rest of the text, closed */
  end(): string {
    return `${this.take()}],"displayTimeUnit":"ms"}`;
  }
}

/** The trace's events in order, one batch per file header and per row. */
function* perfettoEventBatches(files: PerfettoFile[]): Generator<TraceEvent[], void, void> {
  // async ids count up across every file of the trace
  const ids = { asyncId: 0 };
  for (let f = 0; f < files.length; f++) {
    const file = files[f];
    const pid = f + 1;
    const origin = perfettoOrigin(file.globalStart, file.rows);
    yield processEvents(file.name, pid);
    for (let r = 0; r < file.rows.length; r++) {
      yield rowEvents(unpackRow(file.rows[r]), pid, r + 1, origin, ids);
    }
  }
}

/** A file's process: its name and place. */
function processEvents(name: string, pid: number): TraceEvent[] {
  return [
    { name: 'process_name', ph: 'M', pid, tid: 0, args: { name } },
    { name: 'process_sort_index', ph: 'M', pid, tid: 0, args: { sort_index: pid } },
  ];
}

/** A row's thread: its name, then its spans and instant events in time order. */
function rowEvents(
  row: Row,
  pid: number,
  tid: number,
  origin: number,
  ids: { asyncId: number },
): TraceEvent[] {
  const out: TraceEvent[] = [
    {
      name: 'thread_name',
      ph: 'M',
      pid,
      tid,
      args: { name: `#${String(row.sample_index)} ${sourceText(row.source) ?? ''}`.trim() },
    },
    { name: 'thread_sort_index', ph: 'M', pid, tid, args: { sort_index: tid } },
  ];
  const threadEvents: TraceEvent[] = [];
  const spans = row.items
    .filter((i): i is SpanItem => i.type === 'span')
    .sort((a, b) => a.start_ts - b.start_ts || b.display_end_ts - a.display_end_ts);
  const stack: { end: number }[] = [];
  for (const span of spans) {
    const ts = us(span.start_ts - origin);
    const end = us(span.display_end_ts - origin);
    while (stack.length > 0 && stack[stack.length - 1].end <= ts) stack.pop();
    const args = spanArgs(span);
    if (stack.length === 0 || end <= stack[stack.length - 1].end) {
      threadEvents.push({ name: span.name, ph: 'X', pid, tid, ts, dur: end - ts, args });
      stack.push({ end });
      for (const phase of phaseSlices(span, ts, end)) threadEvents.push({ ...phase, pid, tid });
    } else {
      const id = `0x${(++ids.asyncId).toString(16)}`;
      threadEvents.push({
        name: span.name,
        ph: 'b',
        pid,
        tid,
        ts,
        id,
        cat: 'overlapping',
        args,
      });
      threadEvents.push({
        name: span.name,
        ph: 'e',
        pid,
        tid,
        ts: end,
        id,
        cat: 'overlapping',
      });
    }
  }
  for (const item of row.items) {
    if (item.type === 'span') continue;
    threadEvents.push({
      name: item.type === 'orphan_end' ? `orphan end: ${item.name}` : item.name,
      ph: 'i',
      s: 't',
      pid,
      tid,
      ts: us(item.ts - origin),
      args: { ...item.attrs, parent_span_name: item.parent_span_name },
    });
  }
  // per thread in time order; at equal times the enclosing (longer) slice first
  threadEvents.sort((a, b) => a.ts! - b.ts! || (b.dur ?? 0) - (a.dur ?? 0));
  for (const event of threadEvents) out.push(event);
  return out;
}

function spanArgs(span: SpanItem): Record<string, unknown> {
  const args: Record<string, unknown> = {
    span_id: span.span_id,
    parent_span_name: span.parent_span_name,
    attempt: span.attempt,
    start_attrs: span.attrs.start_attrs,
    end_attrs: span.attrs.end_attrs,
  };
  if (span.state === 'open_span') {
    args.ongoing = true;
    args.clipped_by = span.attrs.end_attrs.clipped_by;
  }
  return args;
}

/** PD phases laid end to end from the request's start, scaled to fit inside it. */
function phaseSlices(span: SpanItem, ts: number, end: number): Omit<TraceEvent, 'pid' | 'tid'>[] {
  const phases = span.pd?.phases ?? [];
  if (phases.length === 0) return [];
  const total = phases.reduce((s, p) => s + p.durationSec, 0);
  const length = end - ts;
  const scale = total * 1e6 > length ? length / (total * 1e6) : 1;
  let at = ts;
  return phases.map((phase) => {
    const dur = Math.round(phase.durationSec * 1e6 * scale * 1e3) / 1e3;
    const slice = {
      name: `${span.pd!.role} ${phase.phase}`,
      ph: 'X' as const,
      ts: at,
      dur: Math.min(dur, end - at),
      args: { duration_s: phase.durationSec },
    };
    at += slice.dur;
    return slice;
  });
}

export function writePerfettoJson(trace: PerfettoTrace | object, gzip: boolean): Uint8Array {
  const json = Buffer.from(jsonText(trace), 'utf8');
  return gzip ? gzipSync(json) : json;
}
