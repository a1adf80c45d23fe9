import { minOf, maxOf } from '../../model/extent';
import type { Attrs, PointItem, Row, RowItem, SpanItem } from '../../model/row';
import type { SpanCollector } from './import-spans';

export interface BuiltOtlpRows {
  rows: Row[];
  traces: number;
  missingParents: number;
}

interface Group {
  traceId: string;
  spans: SpanItem[];
}

/**
 * One row per trace (or per joined PD pair): spans nested by parent, span events as instant
 * markers, errors and links marked. Lanes follow the producer: SGLang rows get one lane group
 * per thread, ROLL rows one per service instance, anything else one lane per depth.
 */
export function buildOtlpRows(
  read: SpanCollector,
  options: { joinByBootstrapRoom: boolean },
): BuiltOtlpRows {
  const linkTargets = new LinkTargets(read.byTrace);
  let groups: (Group | null)[] = [...read.byTrace].map(([traceId, spans]) => ({ traceId, spans }));
  if (options.joinByBootstrapRoom) groups = joinByBootstrapRoom(groups as Group[]);
  const firstStart = new Map(groups.map((g) => [g, minOf(g!.spans, (s) => s.start_ts)]));
  groups.sort((a, b) => firstStart.get(a)! - firstStart.get(b)!);
  firstStart.clear();
  let missingParents = 0;
  const rows: Row[] = [];
  for (let position = 0; position < groups.length; position++) {
    const built = buildRow(groups[position]!, position, read, linkTargets);
    groups[position] = null;
    missingParents += built.missingParents;
    rows.push(built.row);
  }
  return { rows, traces: read.byTrace.size, missingParents };
}

const startAttrs = (s: SpanItem): Attrs => s.attrs.start_attrs;
const resourceOf = (s: SpanItem): Attrs => s.otel!.resource!;

/** (ours) Without the router, a request's prefill and decode halves are separate traces sharing bootstrap_room. */
function joinByBootstrapRoom(groups: Group[]): Group[] {
  const byRoom = new Map<string, Group[]>();
  const rest: Group[] = [];
  for (const group of groups) {
    const withRoom = group.spans.find((s) => startAttrs(s).bootstrap_room !== undefined);
    const room = withRoom && startAttrs(withRoom).bootstrap_room;
    if (room === undefined || room === null) rest.push(group);
    else byRoom.set(String(room), [...(byRoom.get(String(room)) ?? []), group]); // few groups per room
  }
  return [
    ...rest,
    ...[...byRoom.values()].map((gs) => ({
      traceId: gs[0].traceId,
      spans: gs.flatMap((g) => g.spans),
    })),
  ];
}

function buildRow(
  group: Group,
  position: number,
  read: SpanCollector,
  linkTargets: LinkTargets,
): { row: Row; missingParents: number } {
  const spans = group.spans;
  const byId = new Map<string | null, SpanItem>();
  for (const s of spans) byId.set(s.span_id, s);
  const parentOf = (s: SpanItem) =>
    s.parent_span_id ? (byId.get(s.parent_span_id) ?? null) : null;
  setDepths(spans, parentOf);
  assignLanes(spans, parentOf);
  let rowEnd = -Infinity;
  for (const s of spans) {
    rowEnd = Math.max(rowEnd, s.end_ts ?? s.start_ts);
    for (const e of read.events.get(s) ?? NONE) rowEnd = Math.max(rowEnd, e.ts);
  }
  let missingParents = 0;
  const items: RowItem[] = [];
  for (const s of spans) {
    const parent = parentOf(s);
    const missingParent = s.parent_span_id !== null && parent === null;
    if (missingParent) missingParents++;
    const events = read.events.get(s) ?? NONE;
    const error = s.otel!.status_code === 'ERROR' || events.some((e) => e.name === 'exception');
    s.parent_span_name = parent?.name ?? null;
    if (s.end_ts === null) s.display_end_ts = rowEnd;
    if (error) s.error = true;
    if (missingParent) s.missing_parent = true;
    const links = read.links.get(s);
    if (links) {
      s.links = links.map((l) => ({
        trace_id: l.traceId,
        span_id: l.spanId,
        dangling: !linkTargets.has(l.traceId, l.spanId),
        attrs: l.attrs,
      }));
    }
    items.push(s);
    for (const e of events) {
      const point: PointItem = {
        type: 'event',
        state: 'point_event',
        name: e.name,
        ts: e.ts,
        attempt: 0,
        span_id: null,
        parent_span_id: s.span_id,
        parent_span_name: s.name,
        lane: s.lane,
        depth: s.depth + 1,
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
  const roots = spans.filter((s) => parentOf(s) === null).sort((a, b) => a.start_ts - b.start_ts);
  const root = roots.find((s) => !s.parent_span_id) ?? roots[0];
  const start = minOf(items, (i) => (i.type === 'span' ? i.start_ts : i.ts));
  const end = maxOf(items, (i) => (i.type === 'span' ? i.display_end_ts : i.ts));
  let closed = 0;
  let open = 0;
  let points = 0;
  let hasError = false;
  for (const i of items) {
    if (i.type === 'span') {
      if (i.state === 'closed_span') closed++;
      else open++;
    } else points++;
    if (i.error) hasError = true;
  }
  return {
    missingParents,
    row: {
      row_id: position,
      sample_index: position,
      group_index: null,
      source: root ? String(resourceOf(root)['service.name'] ?? '') || null : null,
      status: hasError ? 'error' : 'ok',
      label: root?.name ?? null,
      reward: null,
      trace_id: group.traceId,
      attempt: 0,
      start,
      end,
      duration: end - start,
      lane_count: maxOf(items, (i) => i.lane) + 1,
      item_count: items.length,
      closed_span_count: closed,
      open_span_count: open,
      point_event_count: points,
      orphan_count: 0,
      total_response_length: 0,
      max_response_length: 0,
      items,
    },
  };
}

const NONE: never[] = [];
const UNKNOWN = -2;
const ON_CHAIN = -1;

/** Each span's depth below its row's roots, into span.depth; a parent cycle stops where it repeats. */
function setDepths(spans: SpanItem[], parentOf: (s: SpanItem) => SpanItem | null): void {
  for (const s of spans) s.depth = UNKNOWN;
  depthsInto(spans, parentOf, DEPTH_FIELD);
}

/** Where depthsInto keeps depths: a field of the span, no map per row. */
interface DepthSlot {
  get(s: SpanItem): number;
  set(s: SpanItem, depth: number): void;
}

const DEPTH_FIELD: DepthSlot = {
  get: (s) => s.depth,
  set: (s, depth) => void (s.depth = depth),
};

/** Lanes are assigned after depths: a lane group's own depths are kept there until then. */
const LANE_FIELD: DepthSlot = {
  get: (s) => s.lane,
  set: (s, depth) => void (s.lane = depth),
};

function depthsInto(
  spans: SpanItem[],
  parentOf: (s: SpanItem) => SpanItem | null,
  slot: DepthSlot,
): void {
  const chain: SpanItem[] = [];
  for (const s of spans) {
    if (slot.get(s) !== UNKNOWN) continue;
    // walk up to a span whose depth is known (or a root, or a repeat), then fill in downwards;
    // ON_CHAIN marks the spans of this walk, so a parent cycle ends it like a root
    let p: SpanItem | null = s;
    let base = -1;
    while (p) {
      const known = slot.get(p);
      if (known !== UNKNOWN) {
        if (known !== ON_CHAIN) base = known;
        break;
      }
      slot.set(p, ON_CHAIN);
      chain.push(p);
      p = parentOf(p);
    }
    for (let k = chain.length - 1; k >= 0; k--) slot.set(chain[k], ++base);
    chain.length = 0;
  }
}

/** Whether a link's target span is in the file; per-trace id sets built only for linked traces. */
class LinkTargets {
  private readonly ids = new Map<string, Set<string | null>>();
  constructor(private readonly byTrace: Map<string, SpanItem[]>) {}

  has(traceId: string, spanId: string): boolean {
    let ids = this.ids.get(traceId);
    if (!ids) {
      ids = new Set((this.byTrace.get(traceId) ?? []).map((s) => s.span_id));
      this.ids.set(traceId, ids);
    }
    return ids.has(spanId);
  }
}

/**
 * SGLang: spans above the threads keep one lane per depth; each thread (host, pid, label and
 * ranks) is a lane group with its thread span first and its slices packed below. ROLL: one
 * lane group per service instance, nested by depth within the group. Otherwise lane = depth.
 * Lanes and labels go into span.lane and span.lane_label.
 */
function assignLanes(spans: SpanItem[], parentOf: (s: SpanItem) => SpanItem | null): void {
  const isThread = (s: SpanItem) => typeof startAttrs(s).thread_label === 'string';
  const threadSpans = spans.filter(isThread);
  if (threadSpans.length > 0) {
    const threadOf = (s: SpanItem): SpanItem | null => {
      const seen = new Set<SpanItem>();
      for (let p: SpanItem | null = s; p && !seen.has(p); p = parentOf(p)) {
        if (isThread(p)) return p;
        seen.add(p);
      }
      return null;
    };
    const above = spans.filter((s) => threadOf(s) === null);
    const aboveDepths = [...new Set(above.map((s) => s.depth))].sort((a, b) => a - b);
    for (const s of above) s.lane = aboveDepths.indexOf(s.depth);
    let next = aboveDepths.length;
    const groups = new Map<string, SpanItem[]>();
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
      const thread = members.find(isThread)!;
      const label = threadLabel(thread);
      const threads = members.filter(isThread);
      for (const t of threads) setLane(t, next, label);
      const slices = members.filter((s) => !isThread(s));
      const used = packIntervals(slices);
      for (const [s, k] of used.assignment) setLane(s, next + 1 + k, label);
      next += 1 + used.count;
    }
    return;
  }
  let groups: Map<string, SpanItem[]> | null = null;
  let firstKey: string | null = null;
  for (const s of spans) {
    const key = instanceKey(resourceOf(s));
    if (groups === null) {
      if (firstKey === null || key === firstKey) {
        firstKey = key;
        continue;
      }
      // a second instance: group them all
      groups = new Map();
      for (const t of spans) {
        const k = instanceKey(resourceOf(t));
        const list = groups.get(k);
        if (list) list.push(t);
        else groups.set(k, [t]);
      }
      break;
    }
  }
  if (groups !== null) {
    const ordered = byFirstStart(groups);
    let next = 0;
    for (const [key, members] of ordered) {
      // depths within the group, kept in span.lane until the lane replaces them
      const inGroup = new Set(members);
      for (const s of members) s.lane = UNKNOWN;
      depthsInto(
        members,
        (s) => {
          const p = parentOf(s);
          return p && inGroup.has(p) ? p : null;
        },
        LANE_FIELD,
      );
      let height = 0;
      for (const s of members) {
        const d = s.lane;
        setLane(s, next + d, key);
        height = Math.max(height, d + 1);
      }
      next += height;
    }
    return;
  }
  for (const s of spans) s.lane = s.depth;
}

function setLane(s: SpanItem, lane: number, label: string): void {
  s.lane = lane;
  if (label) s.lane_label = label;
}

function threadKey(s: SpanItem): string {
  const a = startAttrs(s);
  return [a.host_id, a.pid, a.thread_label, a.tp_rank, a.pp_rank, a.dp_rank]
    .map((v) => String(v ?? ''))
    .join('|');
}

function threadLabel(s: SpanItem): string {
  const a = startAttrs(s);
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
function packIntervals(spans: SpanItem[]): { assignment: Map<SpanItem, number>; count: number } {
  const sorted = [...spans].sort((a, b) => a.start_ts - b.start_ts);
  const ends: number[] = [];
  const assignment = new Map<SpanItem, number>();
  for (const s of sorted) {
    let k = ends.findIndex((end) => end <= s.start_ts);
    if (k < 0) k = ends.push(0) - 1;
    ends[k] = s.end_ts ?? s.start_ts;
    assignment.set(s, k);
  }
  return { assignment, count: ends.length };
}

/** Lane groups in the order they start. */
function byFirstStart(groups: Map<string, SpanItem[]>): [string, SpanItem[]][] {
  return [...groups.entries()]
    .map((entry) => ({ entry, start: minOf(entry[1], (s) => s.start_ts) }))
    .sort((a, b) => a.start - b.start)
    .map(({ entry }) => entry);
}
