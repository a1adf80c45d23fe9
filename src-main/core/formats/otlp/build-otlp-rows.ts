import { minOf, maxOf } from '../../model/extent';
import type { Attrs, Row, RowItem, SpanItem } from '../../model/row';
import type { SpanCollector, SpanExtras } from './import-spans';

export interface BuiltOtlpRows {
  rows: Row[];
  traces: number;
  missingParents: number;
}

interface Group {
  traceId: string;
  spans: SpanItem[];
  /** events and links at their spans' positions, when any span has them */
  extras: SpanExtras[] | undefined;
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
  let groups: (Group | null)[] = [...read.byTrace].map(([traceId, spans]) => ({
    traceId,
    spans,
    extras: read.extrasByTrace.get(traceId),
  }));
  if (options.joinByBootstrapRoom) groups = joinByBootstrapRoom(groups as Group[]);
  const firstStart = new Map(groups.map((g) => [g, minOf(g!.spans, (s) => s.start_ts)]));
  groups.sort((a, b) => firstStart.get(a)! - firstStart.get(b)!);
  firstStart.clear();
  let missingParents = 0;
  const rows: Row[] = [];
  for (let position = 0; position < groups.length; position++) {
    const built = buildRow(groups[position]!, position, linkTargets);
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
      extras: joinedExtras(gs),
    })),
  ];
}

function joinedExtras(groups: Group[]): SpanExtras[] | undefined {
  if (groups.every((g) => g.extras === undefined)) return undefined;
  const out: SpanExtras[] = [];
  let offset = 0;
  for (const g of groups) {
    g.extras?.forEach((extras, k) => (out[offset + k] = extras));
    offset += g.spans.length;
  }
  return out;
}

function buildRow(
  group: Group,
  position: number,
  linkTargets: LinkTargets,
): { row: Row; missingParents: number } {
  const spans = group.spans;
  const n = spans.length;
  // spans by position: parent[i] is the position of span i's parent in this row, or -1
  const byId = new Map<string | null, number>();
  for (let i = 0; i < n; i++) byId.set(spans[i].span_id, i);
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const id = spans[i].parent_span_id;
    parent[i] = id ? (byId.get(id) ?? -1) : -1;
  }
  setDepths(spans, parent);
  assignLanes(spans, parent);
  const extras = group.extras;
  let rowEnd = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = spans[i];
    rowEnd = Math.max(rowEnd, s.end_ts ?? s.start_ts);
    for (const e of extras?.[i]?.events ?? NONE) rowEnd = Math.max(rowEnd, e.ts);
  }
  let missingParents = 0;
  const items: RowItem[] = [];
  for (let i = 0; i < n; i++) {
    const s = spans[i];
    const parentSpan = parent[i] < 0 ? null : spans[parent[i]];
    const missingParent = s.parent_span_id !== null && parentSpan === null;
    if (missingParent) missingParents++;
    const events = extras?.[i]?.events ?? NONE;
    const error = s.otel!.status_code === 'ERROR' || events.some((e) => e.name === 'exception');
    s.parent_span_name = parentSpan?.name ?? null;
    if (s.end_ts === null) s.display_end_ts = rowEnd;
    if (error) s.error = true;
    if (missingParent) s.missing_parent = true;
    const links = extras?.[i]?.links;
    if (links) {
      for (const link of links) link.dangling = !linkTargets.has(link.trace_id, link.span_id);
      s.links = links;
    }
    items.push(s);
    for (const point of events) {
      point.lane = s.lane;
      point.depth = s.depth + 1;
      items.push(point);
    }
  }
  items.sort(
    (a, b) =>
      a.lane - b.lane ||
      (a.type === 'span' ? a.start_ts : a.ts) - (b.type === 'span' ? b.start_ts : b.ts) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const roots = spans.filter((_, i) => parent[i] < 0).sort((a, b) => a.start_ts - b.start_ts);
  const root = roots.find((s) => !s.parent_span_id) ?? roots[0];
  const named = requestSpan(spans) ?? root;
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
      source: named ? String(resourceOf(named)['service.name'] ?? '') || null : null,
      status: hasError ? 'error' : 'ok',
      label: named?.name ?? null,
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

/**
 * The span that names a row: SGLang's request root (`{role} Req {rid[:8]}`, attr `rid`), the
 * decode half's when both are in the row (the response, and the rid a client sees, come from
 * decode); the router's `http_request` above it says only that a request came in. Rows
 * without one (ROLL, any other producer) are named by their root.
 */
function requestSpan(spans: readonly SpanItem[]): SpanItem | undefined {
  let found: SpanItem | undefined;
  for (const s of spans) {
    if (startAttrs(s).rid === undefined || !/ Req /.test(s.name)) continue;
    if (s.name.startsWith('decode')) return s;
    if (!found || s.start_ts < found.start_ts) found = s;
  }
  return found;
}

const NONE: never[] = [];
const UNKNOWN = -2;
const ON_CHAIN = -1;
const WALKING = -3;
/** the spans of one walk up (depthsFrom): one array for every walk, not one per span */
const WALK: number[] = [];

/** Each span's depth below its row's roots, into span.depth; a parent cycle stops where it repeats. */
function setDepths(spans: SpanItem[], parent: Int32Array): void {
  const depth = new Int32Array(spans.length).fill(UNKNOWN);
  for (let i = 0; i < spans.length; i++) depthsFrom(i, (k) => parent[k], depth);
  for (let i = 0; i < spans.length; i++) spans[i].depth = depth[i];
}

/**
 * Depths of `start` and the ancestors above it not yet known, by position: walk up to a span
 * whose depth is known (or a root, or a repeat), then fill in downwards. ON_CHAIN marks the
 * spans of this walk, so a parent cycle ends it like a root.
 */
function depthsFrom(start: number, parentOf: (i: number) => number, depth: Int32Array): void {
  if (depth[start] !== UNKNOWN) return;
  const chain = WALK;
  chain.length = 0;
  let p = start;
  let base = -1;
  while (p >= 0) {
    const known = depth[p];
    if (known !== UNKNOWN) {
      if (known !== ON_CHAIN) base = known;
      break;
    }
    depth[p] = ON_CHAIN;
    chain.push(p);
    p = parentOf(p);
  }
  for (let k = chain.length - 1; k >= 0; k--) depth[chain[k]] = ++base;
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
function assignLanes(spans: SpanItem[], parent: Int32Array): void {
  const n = spans.length;
  const isThread = new Uint8Array(n);
  let threads = 0;
  for (let i = 0; i < n; i++) {
    if (typeof startAttrs(spans[i]).thread_label === 'string') {
      isThread[i] = 1;
      threads++;
    }
  }
  if (threads > 0) {
    const thread = threadsOf(parent, isThread);
    const aboveDepths: number[] = [];
    for (let i = 0; i < n; i++) if (thread[i] < 0) aboveDepths.push(spans[i].depth);
    const laneOfDepth = new Map(
      [...new Set(aboveDepths)].sort((a, b) => a - b).map((depth, lane) => [depth, lane]),
    );
    for (let i = 0; i < n; i++) if (thread[i] < 0) spans[i].lane = laneOfDepth.get(spans[i].depth)!;
    let next = laneOfDepth.size;
    const keys = new Map<number, string>();
    const groups = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const t = thread[i];
      if (t < 0) continue;
      let key = keys.get(t);
      if (key === undefined) keys.set(t, (key = threadKey(spans[t])));
      const list = groups.get(key);
      if (list) list.push(i);
      else groups.set(key, [i]);
    }
    for (const [, members] of byFirstStart(groups, (i) => spans[i].start_ts)) {
      const label = threadLabel(spans[members.find((i) => isThread[i])!]);
      for (const i of members) if (isThread[i]) setLane(spans[i], next, label);
      const slices = members.filter((i) => !isThread[i]).map((i) => spans[i]);
      const used = packIntervals(slices);
      for (const [s, k] of used.assignment) setLane(s, next + 1 + k, label);
      next += 1 + used.count;
    }
    return;
  }
  // ROLL: one lane group per service instance, when there is more than one
  const instance = new Array<string>(n);
  let several = false;
  for (let i = 0; i < n; i++) {
    instance[i] = instanceKey(resourceOf(spans[i]));
    if (instance[i] !== instance[0]) several = true;
  }
  if (several) {
    const groups = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const list = groups.get(instance[i]);
      if (list) list.push(i);
      else groups.set(instance[i], [i]);
    }
    const ordered = byFirstStart(groups, (i) => spans[i].start_ts);
    // depths within each group: a parent in another group counts as no parent
    const localDepth = new Int32Array(n).fill(UNKNOWN);
    let next = 0;
    for (const [key, members] of ordered) {
      const inGroup = (k: number) => (k >= 0 && instance[k] === key ? k : -1);
      for (const i of members) depthsFrom(i, (k) => inGroup(parent[k]), localDepth);
      let height = 0;
      for (const i of members) {
        const d = localDepth[i];
        setLane(spans[i], next + d, key);
        height = Math.max(height, d + 1);
      }
      next += height;
    }
    return;
  }
  for (const s of spans) s.lane = s.depth;
}

/**
 * The thread span each span runs in (itself, or its nearest thread ancestor), by position, or
 * -1 above the threads; a parent cycle without a thread leaves its spans above them.
 */
function threadsOf(parent: Int32Array, isThread: Uint8Array): Int32Array {
  const n = parent.length;
  const thread = new Int32Array(n).fill(UNKNOWN);
  const chain: number[] = [];
  for (let i = 0; i < n; i++) {
    if (thread[i] !== UNKNOWN) continue;
    let result = -1;
    for (let p = i; p >= 0; p = parent[p]) {
      if (thread[p] !== UNKNOWN) {
        // known, or on this walk already: a cycle of spans without a thread
        result = thread[p] === WALKING ? -1 : thread[p];
        break;
      }
      if (isThread[p]) {
        result = thread[p] = p;
        break;
      }
      thread[p] = WALKING;
      chain.push(p);
    }
    for (const k of chain) thread[k] = result;
    chain.length = 0;
  }
  return thread;
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
function byFirstStart<T>(
  groups: Map<string, T[]>,
  startOf: (member: T) => number,
): [string, T[]][] {
  return [...groups.entries()]
    .map((entry) => ({ entry, start: minOf(entry[1], startOf) }))
    .sort((a, b) => a.start - b.start)
    .map(({ entry }) => entry);
}
