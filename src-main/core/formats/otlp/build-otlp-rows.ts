import { minOf, maxOf } from '../../model/extent';
import type { Attrs, PointItem, Row, RowItem, SpanItem } from '../../model/row';
import { EMPTY_ATTRS } from './otlp-values';
import type { OtlpSpan } from './read-otlp';

export interface BuiltOtlpRows {
  rows: Row[];
  traces: number;
  missingParents: number;
}

/**
 * One row per trace (or per joined PD pair): spans nested by parent, span events as instant
 * markers, errors and links marked. Lanes follow the producer: SGLang rows get one lane group
 * per thread, ROLL rows one per service instance, anything else one lane per depth.
 */
export function buildOtlpRows(
  spans: OtlpSpan[],
  options: { joinByBootstrapRoom: boolean },
): BuiltOtlpRows {
  const byTrace = new Map<string, OtlpSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId);
    if (list) list.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  const linkTargets = new LinkTargets(byTrace);
  let groups: (OtlpSpan[] | null)[] = [...byTrace.values()];
  if (options.joinByBootstrapRoom) groups = joinByBootstrapRoom(groups as OtlpSpan[][]);
  const firstStart = new Map(groups.map((g) => [g, minOf(g!, (s) => s.start)]));
  groups.sort((a, b) => firstStart.get(a)! - firstStart.get(b)!);
  firstStart.clear();
  let missingParents = 0;
  const otel = new SharedOtel();
  const rows: Row[] = [];
  for (let position = 0; position < groups.length; position++) {
    const built = buildRow(groups[position]!, position, linkTargets, otel);
    // the spans' wrappers are garbage once their row holds the items
    groups[position] = null;
    missingParents += built.missingParents;
    rows.push(built.row);
  }
  return { rows, traces: byTrace.size, missingParents };
}

/** (ours) Without the router, a request's prefill and decode halves are separate traces sharing bootstrap_room. */
function joinByBootstrapRoom(groups: OtlpSpan[][]): OtlpSpan[][] {
  const byRoom = new Map<string, OtlpSpan[][]>();
  const rest: OtlpSpan[][] = [];
  for (const group of groups) {
    const room = group.find((s) => s.attrs.bootstrap_room !== undefined)?.attrs.bootstrap_room;
    if (room === undefined || room === null) rest.push(group);
    else byRoom.set(String(room), [...(byRoom.get(String(room)) ?? []), group]); // few groups per room
  }
  return [...rest, ...[...byRoom.values()].map((gs) => gs.flat())];
}

function buildRow(
  spans: OtlpSpan[],
  position: number,
  linkTargets: LinkTargets,
  otel: SharedOtel,
): { row: Row; missingParents: number } {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const parentOf = (s: OtlpSpan) => (s.parentSpanId ? (byId.get(s.parentSpanId) ?? null) : null);
  const depth = depthsOf(spans, parentOf);
  const lanes = assignLanes(spans, parentOf, depth);
  let rowEnd = -Infinity;
  for (const s of spans) {
    rowEnd = Math.max(rowEnd, s.end ?? s.start);
    for (const e of s.events) rowEnd = Math.max(rowEnd, e.ts);
  }
  let missingParents = 0;
  const items: RowItem[] = [];
  for (const s of spans) {
    const parent = parentOf(s);
    const missingParent = s.parentSpanId !== '' && parent === null;
    if (missingParent) missingParents++;
    const error = s.status.code === 'ERROR' || s.events.some((e) => e.name === 'exception');
    const lane = lanes.get(s)!;
    const span: SpanItem = {
      type: 'span',
      state: s.end === null ? 'open_span' : 'closed_span',
      name: s.name,
      start_ts: s.start,
      end_ts: s.end,
      display_end_ts: s.end ?? rowEnd,
      attempt: 0,
      span_id: s.spanId,
      parent_span_id: s.parentSpanId || null,
      parent_span_name: parent?.name ?? null,
      lane: lane.lane,
      depth: depth.get(s)!,
      attrs:
        s.end === null
          ? { start_attrs: s.attrs, end_attrs: CLIPPED_AT_ROW_END }
          : { start_attrs: s.attrs, end_attrs: EMPTY_ATTRS },
      service: String(s.resource['service.name'] ?? ''),
      otel: otel.of(s),
    };
    if (lane.label) span.lane_label = lane.label;
    if (error) span.error = true;
    if (missingParent) span.missing_parent = true;
    if (s.links.length > 0) {
      span.links = s.links.map((l) => ({
        trace_id: l.traceId,
        span_id: l.spanId,
        dangling: !linkTargets.has(l.traceId, l.spanId),
        attrs: l.attrs,
      }));
    }
    items.push(span);
    for (const e of s.events) {
      const point: PointItem = {
        type: 'event',
        state: 'point_event',
        name: e.name,
        ts: e.ts,
        attempt: 0,
        span_id: null,
        parent_span_id: s.spanId,
        parent_span_name: s.name,
        lane: lane.lane,
        depth: depth.get(s)! + 1,
        attrs: e.attrs,
      };
      if (e.name === 'exception') point.error = true;
      items.push(point);
    }
  }
  items.sort(
    (a, b) =>
      a.lane - b.lane ||
      (a.type === 'span' ? a.start_ts : a.ts) - (b.type === 'span' ? b.start_ts : b.ts) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const roots = spans.filter((s) => parentOf(s) === null).sort((a, b) => a.start - b.start);
  const root = roots.find((s) => !s.parentSpanId) ?? roots[0];
  const start = minOf(items, (i) => (i.type === 'span' ? i.start_ts : i.ts));
  const end = maxOf(items, (i) => (i.type === 'span' ? i.display_end_ts : i.ts));
  const hasError = items.some((i) => i.error);
  return {
    missingParents,
    row: {
      row_id: position,
      sample_index: position,
      group_index: null,
      source: root ? String(root.resource['service.name'] ?? '') || null : null,
      status: hasError ? 'error' : 'ok',
      label: root?.name ?? null,
      reward: null,
      trace_id: spans[0].traceId,
      attempt: 0,
      start,
      end,
      duration: end - start,
      lane_count: maxOf(items, (i) => i.lane) + 1,
      item_count: items.length,
      closed_span_count: items.filter((i) => i.type === 'span' && i.state === 'closed_span').length,
      open_span_count: items.filter((i) => i.type === 'span' && i.state === 'open_span').length,
      point_event_count: items.filter((i) => i.type === 'event').length,
      orphan_count: 0,
      total_response_length: 0,
      max_response_length: 0,
      items,
    },
  };
}

/** Depth of each span below its row's roots; a parent cycle stops where it repeats. */
function depthsOf(
  spans: OtlpSpan[],
  parentOf: (s: OtlpSpan) => OtlpSpan | null,
): Map<OtlpSpan, number> {
  const depth = new Map<OtlpSpan, number>();
  const chain: OtlpSpan[] = [];
  for (const s of spans) {
    if (depth.has(s)) continue;
    // walk up to a span whose depth is known (or a root, or a repeat), then fill in downwards
    const onChain = new Set<OtlpSpan>();
    let p: OtlpSpan | null = s;
    let base = -1;
    while (p && !onChain.has(p)) {
      const known = depth.get(p);
      if (known !== undefined) {
        base = known;
        break;
      }
      onChain.add(p);
      chain.push(p);
      p = parentOf(p);
    }
    for (let k = chain.length - 1; k >= 0; k--) depth.set(chain[k], ++base);
    chain.length = 0;
  }
  return depth;
}

const CLIPPED_AT_ROW_END: Attrs = Object.freeze({ clipped_by: 'row_end' });

/** Whether a link's target span is in the file; per-trace id sets built only for linked traces. */
class LinkTargets {
  private readonly ids = new Map<string, Set<string>>();
  constructor(private readonly byTrace: Map<string, OtlpSpan[]>) {}

  has(traceId: string, spanId: string): boolean {
    let ids = this.ids.get(traceId);
    if (!ids) {
      ids = new Set((this.byTrace.get(traceId) ?? []).map((s) => s.spanId));
      this.ids.set(traceId, ids);
    }
    return ids.has(spanId);
  }
}

type Otel = NonNullable<SpanItem['otel']>;

/** One details object per (kind, status, resource, scope): spans share a handful of them. */
class SharedOtel {
  private readonly byResource = new Map<Attrs, Map<string, Otel>>();

  of(s: OtlpSpan): Otel {
    let known = this.byResource.get(s.resource);
    if (!known) {
      known = new Map();
      this.byResource.set(s.resource, known);
    }
    const key = `${s.kind}\u0000${s.status.code}\u0000${s.status.message}\u0000${s.scope}`;
    let otel = known.get(key);
    if (!otel) {
      otel = {
        kind: s.kind,
        status_code: s.status.code,
        status_message: s.status.message,
        resource: s.resource,
        scope: s.scope,
      };
      known.set(key, otel);
    }
    return otel;
  }
}

type Lane = { lane: number; label?: string };

/**
 * SGLang: spans above the threads keep one lane per depth; each thread (host, pid, label and
 * ranks) is a lane group with its thread span first and its slices packed below. ROLL: one
 * lane group per service instance, nested by depth within the group. Otherwise lane = depth.
 */
function assignLanes(
  spans: OtlpSpan[],
  parentOf: (s: OtlpSpan) => OtlpSpan | null,
  depth: Map<OtlpSpan, number>,
): Map<OtlpSpan, Lane> {
  const lanes = new Map<OtlpSpan, Lane>();
  const threadSpans = spans.filter((s) => typeof s.attrs.thread_label === 'string');
  if (threadSpans.length > 0) {
    const threadOf = (s: OtlpSpan): OtlpSpan | null => {
      const seen = new Set<OtlpSpan>();
      for (let p: OtlpSpan | null = s; p && !seen.has(p); p = parentOf(p)) {
        if (typeof p.attrs.thread_label === 'string') return p;
        seen.add(p);
      }
      return null;
    };
    const above = spans.filter((s) => threadOf(s) === null);
    const aboveDepths = [...new Set(above.map((s) => depth.get(s)!))].sort((a, b) => a - b);
    for (const s of above) lanes.set(s, { lane: aboveDepths.indexOf(depth.get(s)!) });
    let next = aboveDepths.length;
    const groups = new Map<string, OtlpSpan[]>();
    for (const s of spans) {
      const thread = threadOf(s);
      if (!thread) continue;
      const key = threadKey(thread);
      const list = groups.get(key);
      if (list) list.push(s);
      else groups.set(key, [s]);
    }
    const ordered = byFirstStart(groups);
    for (const [, members] of ordered) {
      const thread = members.find((s) => typeof s.attrs.thread_label === 'string')!;
      const label = threadLabel(thread);
      const threads = members.filter((s) => typeof s.attrs.thread_label === 'string');
      for (const t of threads) lanes.set(t, { lane: next, label });
      const slices = members.filter((s) => typeof s.attrs.thread_label !== 'string');
      const used = packIntervals(slices);
      for (const [s, k] of used.assignment) lanes.set(s, { lane: next + 1 + k, label });
      next += 1 + used.count;
    }
    return lanes;
  }
  const groups = new Map<string, OtlpSpan[]>();
  for (const s of spans) {
    const key = instanceKey(s.resource);
    const list = groups.get(key);
    if (list) list.push(s);
    else groups.set(key, [s]);
  }
  if (groups.size > 1) {
    const ordered = byFirstStart(groups);
    let next = 0;
    for (const [key, members] of ordered) {
      const inGroup = new Set(members);
      const localDepth = depthsOf(members, (s) => {
        const p = parentOf(s);
        return p && inGroup.has(p) ? p : null;
      });
      let height = 0;
      const byDepth: Lane[] = [];
      for (const s of members) {
        const d = localDepth.get(s)!;
        lanes.set(s, (byDepth[d] ??= { lane: next + d, label: key }));
        height = Math.max(height, d + 1);
      }
      next += height;
    }
    return lanes;
  }
  for (const s of spans) lanes.set(s, { lane: depth.get(s)! });
  return lanes;
}

function threadKey(s: OtlpSpan): string {
  const a = s.attrs;
  return [a.host_id, a.pid, a.thread_label, a.tp_rank, a.pp_rank, a.dp_rank]
    .map((v) => String(v ?? ''))
    .join('|');
}

function threadLabel(s: OtlpSpan): string {
  const a = s.attrs;
  const ranks = [
    a.tp_rank !== undefined ? `TP${String(a.tp_rank)}` : '',
    a.pp_rank !== undefined ? `PP${String(a.pp_rank)}` : '',
    a.dp_rank !== undefined ? `DP${String(a.dp_rank)}` : '',
  ].filter(Boolean);
  return [String(a.thread_label), ...ranks].join(' ');
}

const instanceKeys = new WeakMap<Attrs, string>();

/** service.name and service.instance.id; resources are shared, so once per resource. */
function instanceKey(resource: Attrs): string {
  let key = instanceKeys.get(resource);
  if (key === undefined) {
    const name = String(resource['service.name'] ?? 'unknown');
    const instance = resource['service.instance.id'];
    key = instance === undefined ? name : `${name} ${String(instance)}`;
    instanceKeys.set(resource, key);
  }
  return key;
}

/** Greedy interval packing: each span into the first sub-lane free at its start. */
function packIntervals(spans: OtlpSpan[]): { assignment: Map<OtlpSpan, number>; count: number } {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const ends: number[] = [];
  const assignment = new Map<OtlpSpan, number>();
  for (const s of sorted) {
    let k = ends.findIndex((end) => end <= s.start);
    if (k < 0) k = ends.push(0) - 1;
    ends[k] = s.end ?? s.start;
    assignment.set(s, k);
  }
  return { assignment, count: ends.length };
}

/** Lane groups in the order they start. */
function byFirstStart(groups: Map<string, OtlpSpan[]>): [string, OtlpSpan[]][] {
  return [...groups.entries()]
    .map((entry) => ({ entry, start: minOf(entry[1], (s) => s.start) }))
    .sort((a, b) => a.start - b.start)
    .map(({ entry }) => entry);
}
