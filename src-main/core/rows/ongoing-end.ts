import type { ClipReason } from '../model/row';
import type { WalkSpan } from './collect-items';
import { comparePyStr } from './python-values';

/**
 * Step 4: where an ongoing span is drawn to end. Candidates in order row_end,
 * next_sibling_start, ancestor_end (only when after the start); the smallest wins, ties to the
 * earlier; an end not after the start gives a zero-length span clipped by 'self'.
 *
 * Linear overall (n log n with the sibling sort): a cancelled rollout may leave tens of
 * thousands of spans open, and a scan of all siblings and all ancestors per open span was
 * quadratic. The next later sibling start is a binary search over the siblings' running
 * maximum start; the ancestor end is memoised per parent id. Both caches hang off the
 * arguments (WeakMaps), so callers keep passing what they already have.
 */
export function ongoingEnd(
  span: WalkSpan,
  byId: ReadonlyMap<string, WalkSpan>,
  siblingsByParent: Map<string | null, WalkSpan[]>,
  rowEnd: number,
): { end: number; reason: ClipReason } {
  const ancestor = ancestorEnd(span, byId);
  const candidates: [ClipReason, number | null][] = [
    ['row_end', Number.isFinite(rowEnd) ? rowEnd : null],
    ['next_sibling_start', nextSiblingStart(span, siblingsByParent)],
    ['ancestor_end', ancestor !== null && ancestor > span.start ? ancestor : null],
  ];
  let best: { end: number; reason: ClipReason } | null = null;
  for (const [reason, end] of candidates) {
    if (end === null) continue;
    if (best === null || end < best.end) best = { end, reason };
  }
  if (best === null || !(best.end > span.start)) return { end: span.start, reason: 'self' };
  return best;
}

/**
 * Spans with the same parent (roots together), sorted by (start, end or +inf, name or "span"),
 * a stable sort over the walk's span order.
 */
export function groupSiblings(spans: Iterable<WalkSpan>): Map<string | null, WalkSpan[]> {
  const groups = new Map<string | null, WalkSpan[]>();
  for (const span of spans) {
    const list = groups.get(span.parent);
    if (list) list.push(span);
    else groups.set(span.parent, [span]);
  }
  // Python's `end_ts or inf` also turns an end of exactly 0 into +inf
  const endKey = (s: WalkSpan) => (s.end === null || s.end === 0 ? Infinity : s.end);
  // -1/0/1 rather than differences of times (a heap number per comparison); a NaN compares
  // equal, as `NaN || next` did
  const bySiblingOrder = (a: WalkSpan, b: WalkSpan): number => {
    if (a.start < b.start) return -1;
    if (a.start > b.start) return 1;
    const aEnd = endKey(a);
    const bEnd = endKey(b);
    if (aEnd < bEnd) return -1;
    if (aEnd > bEnd) return 1;
    return comparePyStr(a.name || 'span', b.name || 'span');
  };
  for (const list of groups.values()) if (list.length > 1) list.sort(bySiblingOrder);
  return groups;
}

/** Per sibling list, the running maximum of its starts (NaN starts never count as later). */
const runningMaxStarts = new WeakMap<WalkSpan[], Float64Array>();

function runningMaxStart(siblings: WalkSpan[]): Float64Array {
  let max = runningMaxStarts.get(siblings);
  if (max) return max;
  max = new Float64Array(siblings.length);
  let m = -Infinity;
  for (let i = 0; i < siblings.length; i++) {
    const start = siblings[i].start;
    if (start > m) m = start;
    max[i] = m;
  }
  runningMaxStarts.set(siblings, max);
  return max;
}

/**
 * The start of the first sibling, in sibling order, that starts later than the span (the span
 * itself never does). The first index whose running maximum exceeds the start is exactly that
 * sibling, whatever the order, so a binary search over the running maximum finds it.
 */
function nextSiblingStart(
  span: WalkSpan,
  siblingsByParent: Map<string | null, WalkSpan[]>,
): number | null {
  const siblings = siblingsByParent.get(span.parent);
  if (!siblings || !(span.start === span.start)) return null;
  const max = runningMaxStart(siblings);
  let lo = 0;
  let hi = max.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (max[mid] > span.start) hi = mid;
    else lo = mid + 1;
  }
  return lo < siblings.length ? siblings[lo].start : null;
}

/** Per byId map: the walk's answer from a parent id (the nearest closed ancestor's end). */
const ancestorEnds = new WeakMap<ReadonlyMap<string, WalkSpan>, Map<string, number | null>>();

/**
 * The nearest closed ancestor's end, walking past open ancestors, stopping at an unknown id.
 * slime's loop never ends on a cycle of open spans; we stop there instead (null). Every open
 * id on a walk gets the walk's answer, so each id is walked past once per row.
 */
export function ancestorEnd(span: WalkSpan, byId: ReadonlyMap<string, WalkSpan>): number | null {
  let memo = ancestorEnds.get(byId);
  if (!memo) ancestorEnds.set(byId, (memo = new Map()));
  const path: string[] = [];
  const onPath = new Set<string>();
  let parentId = span.parent;
  let answer: number | null = null;
  while (parentId !== null) {
    const known = memo.get(parentId);
    if (known !== undefined) {
      answer = known;
      break;
    }
    if (onPath.has(parentId)) break; // a cycle of open spans: null for every id on it
    const parent = byId.get(parentId);
    if (!parent) break;
    if (parent.end !== null) {
      answer = parent.end;
      break;
    }
    path.push(parentId);
    onPath.add(parentId);
    parentId = parent.parent;
  }
  for (const id of path) memo.set(id, answer);
  return answer;
}
