import type { PackedRow, PdPhase, PdRole, SpanItem } from '../model/row';
import { unpackItems } from './packed-items';
import type {
  BoundingSample,
  ResumedSample,
  TimeWindow,
  WallTimeBreakdown,
  WallTimeCategory,
} from '../model/rollout-figures';
import { WALL_TIME_CATEGORIES } from '../model/rollout-figures';
import { isGroupWide, sampleWorkEnd } from './sample-work';
import { layOutFlatPdPhases } from './flat-pd-stretches';

/**
 * What kept the rollout open, moment by moment, over its own window: a rollout ends when its
 * last group ends, and a group when its slowest sample ends, so each moment is attributed to
 * what that sample (the bounding sample) was doing then: queueing, prefill, decode, other
 * generation, tool calls, reward model. Before it started, the moment is queueing (it waited to
 * be scheduled). Sums of span durations cannot say this: spans of many samples overlap.
 */
export function buildOwnBreakdown(
  rows: PackedRow[],
  own: TimeWindow,
  globalStartSec: number,
): WallTimeBreakdown {
  const seconds = zeroSeconds();
  const bounding = boundingRow(rows);
  if (!bounding || own.durationSec <= 0) {
    return {
      window: own,
      seconds,
      boundingRowId: null,
      boundingGroupIndex: null,
      bounding: null,
    };
  }
  const from = globalStartSec + own.startSec;
  const to = globalStartSec + own.endSec;
  const allSpans = unpackItems(bounding.packed).filter(
    (item): item is SpanItem => item.type === 'span' && !isGroupWide(item),
  );
  const spans = allSpans.filter((span) => !isVirtualPdSpan(span));
  const pieces = [...spans.flatMap(categorisedPieces), ...flatPdPieces(allSpans, spans)];
  const rowStart = Math.max(from, firstWorkStart(allSpans, bounding.start, from));
  const cuts = new Set<number>([from, to, rowStart]);
  for (const piece of pieces) {
    if (piece.start > from && piece.start < to) cuts.add(piece.start);
    if (piece.end > from && piece.end < to) cuts.add(piece.end);
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const categoryAt = sweepCategories(pieces, rowStart);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [start, end] = [sorted[i], sorted[i + 1]];
    seconds[categoryAt((start + end) / 2)] += end - start;
  }
  return {
    window: own,
    seconds,
    boundingRowId: bounding.row_id,
    boundingGroupIndex: bounding.group_index,
    bounding: describeBounding(bounding, spans),
  };
}

/** The bounding sample as the answer names it: status, retries, and its last request. */
function describeBounding(row: PackedRow, spans: SpanItem[]): BoundingSample {
  let last: SpanItem | null = null;
  for (const span of spans) {
    if (!isRequest(span.name)) continue;
    if (!last || span.start_ts >= last.start_ts) last = span;
  }
  const attempt = typeof row.attempt === 'number' ? row.attempt : 0;
  return {
    rowId: row.row_id,
    sampleIndex: row.sample_index,
    groupIndex: row.group_index,
    status: row.status,
    attempt,
    lastRequest: last && {
      name: last.name,
      durationSec: last.display_end_ts - last.start_ts,
      unfinished: last.state === 'open_span',
    },
  };
}

/**
 * The whole file's span: the own window's breakdown, plus, before it, resumed samples' earlier
 * attempts and the idle time between attempts (covered by no span of any sample).
 */
export function buildWholeBreakdown(
  ownBreakdown: WallTimeBreakdown,
  whole: TimeWindow,
  resumed: ResumedSample[],
): WallTimeBreakdown {
  const seconds = { ...ownBreakdown.seconds };
  const before = ownBreakdown.window.startSec - whole.startSec;
  const earlier = unionLength(
    resumed.map((r) => [
      r.earlierStartSec,
      Math.min(r.earlierEndSec, ownBreakdown.window.startSec),
    ]),
  );
  seconds['earlier attempts'] += earlier;
  seconds['idle between attempts'] += Math.max(0, before - earlier);
  return { ...ownBreakdown, window: whole, seconds };
}

function zeroSeconds(): Record<WallTimeCategory, number> {
  return Object.fromEntries(WALL_TIME_CATEGORIES.map((c) => [c, 0])) as Record<
    WallTimeCategory,
    number
  >;
}

/** The slowest sample of the group that ends last (ties: the earlier row). */
export function boundingRow(rows: PackedRow[]): PackedRow | null {
  let lastGroup: PackedRow | null = null;
  for (const row of rows) if (!lastGroup || row.end > lastGroup.end) lastGroup = row;
  if (!lastGroup) return null;
  const group = rows.filter((row) => sameGroup(row, lastGroup));
  let slowest = group[0];
  for (const row of group) if (sampleWorkEnd(row) > sampleWorkEnd(slowest)) slowest = row;
  return slowest;
}

export function sameGroup(a: PackedRow, b: PackedRow): boolean {
  if (a.group_index === null || a.group_index === undefined) return a.row_id === b.row_id;
  return JSON.stringify(a.group_index) === JSON.stringify(b.group_index);
}

/**
 * When the row's own spans (not group-wide) first run at or after `from`; `rowStart` without
 * any. Given the spans already unpacked: a GPU rank's row is a million items, and unpacking
 * them a second time here was a tenth of its open.
 */
function firstWorkStart(spans: readonly SpanItem[], rowStart: number, from: number): number {
  let start = Infinity;
  for (const item of spans) {
    if (item.display_end_ts >= from && item.start_ts < start) start = item.start_ts;
  }
  return start === Infinity ? rowStart : start;
}

interface Piece {
  start: number;
  end: number;
  /** which piece wins where several cover a moment: the deepest */
  rank: number;
  category: WallTimeCategory;
}

/** A span as the category it counts for; a generate request's queue time is queueing. */
function categorisedPieces(span: SpanItem): Piece[] {
  const category = spanCategory(span);
  const pieces: Piece[] = [
    { start: span.start_ts, end: span.display_end_ts, rank: span.depth, category },
  ];
  const queue = span.attrs.end_attrs.queue_time;
  if (category === 'unsplit request' && typeof queue === 'number' && queue > 0) {
    const end = Math.min(span.display_end_ts, span.start_ts + queue);
    pieces.push({ start: span.start_ts, end, rank: Infinity, category: 'queueing' });
  }
  return pieces;
}

function isRequest(name: string): boolean {
  return name.startsWith('sglang_generate');
}

function spanCategory(span: SpanItem): WallTimeCategory {
  const name = span.name;
  if (name.startsWith('sglang_pd_prefill')) return 'prefill';
  if (name.startsWith('sglang_pd_decode')) return 'decode';
  if (isRequest(name)) return span.state === 'open_span' ? 'unfinished request' : 'unsplit request';
  if (/tool/.test(name)) return 'tool calls';
  if (/reward/.test(name)) return 'reward model';
  return 'other in sample';
}

/**
 * The category at each of a rising series of moments: the covering piece of highest rank (the
 * first listed among equals), else a gap. A sweep with a heap of the pieces begun so far, so a
 * row of 200,000 nested spans costs n log n, not a scan of every piece per moment.
 */
function sweepCategories(pieces: Piece[], rowStart: number): (t: number) => WallTimeCategory {
  const byStart = pieces.map((_, k) => k).sort((a, b) => pieces[a].start - pieces[b].start);
  // before `b` in the heap: higher rank, then earlier in the list (what a scan would keep)
  const before = (a: number, b: number) =>
    pieces[a].rank > pieces[b].rank || (pieces[a].rank === pieces[b].rank && a < b);
  const heap: number[] = [];
  let next = 0;
  return (t) => {
    if (t < rowStart) return 'queueing';
    while (next < byStart.length && pieces[byStart[next]].start <= t) {
      heapPush(heap, byStart[next++], before);
    }
    // moments rise, so a piece that has ended never covers a later one
    while (heap.length > 0 && pieces[heap[0]].end <= t) heapPop(heap, before);
    return heap.length > 0 ? pieces[heap[0]].category : 'gaps in sample';
  };
}

function heapPush(heap: number[], value: number, before: (a: number, b: number) => boolean) {
  heap.push(value);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i], heap[parent])) break;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function heapPop(heap: number[], before: (a: number, b: number) => boolean) {
  const last = heap.pop()!;
  if (heap.length === 0) return;
  heap[0] = last;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let top = i;
    if (left < heap.length && before(heap[left], heap[top])) top = left;
    if (right < heap.length && before(heap[right], heap[top])) top = right;
    if (top === i) return;
    [heap[i], heap[top]] = [heap[top], heap[i]];
    i = top;
  }
}

/** Total length of the union of [start, end] intervals. */
function unionLength(intervals: [number, number][]): number {
  const sorted = intervals.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [curStart, curEnd] = [-Infinity, -Infinity];
  for (const [s, e] of sorted) {
    if (s > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      [curStart, curEnd] = [s, e];
    } else curEnd = Math.max(curEnd, e);
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

/** slime's legacy `[P]`/`[D]` spans repeat their request's interval: the request counts once. */
function isVirtualPdSpan(span: SpanItem): boolean {
  return span.attrs.end_attrs.timeline_pd_virtual_role !== undefined;
}

/**
 * A request with flat PD keys (its `[P]`/`[D]` virtual spans carry the phases) counts its
 * phases as prefill and decode, laid out as current dumps' `sglang_pd_*` children are, at the
 * depth those children would have: without this the whole request counted as an unsplit request.
 */
function flatPdPieces(allSpans: SpanItem[], realSpans: SpanItem[]): Piece[] {
  const phasesOf = new Map<string, Partial<Record<PdRole, PdPhase[]>>>();
  for (const span of allSpans) {
    if (!span.pd || !isVirtualPdSpan(span) || !span.parent_span_id) continue;
    const phases = phasesOf.get(span.parent_span_id) ?? {};
    phases[span.pd.role] = span.pd.phases;
    phasesOf.set(span.parent_span_id, phases);
  }
  if (phasesOf.size === 0) return [];
  const pieces: Piece[] = [];
  for (const request of realSpans) {
    const phases = request.span_id ? phasesOf.get(request.span_id) : undefined;
    if (!phases) continue;
    const interval = { start: request.start_ts, end: request.display_end_ts };
    for (const stretch of layOutFlatPdPhases(interval, phases)) {
      const { start, end, role } = stretch;
      pieces.push({ start, end, rank: request.depth + 1, category: role });
    }
  }
  return pieces;
}
