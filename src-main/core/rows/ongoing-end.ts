import type { ClipReason } from '../model/row';
import type { WalkSpan } from './collect-items';
import { comparePyStr } from './python-values';

/**
 * Step 4: where an ongoing span is drawn to end. Candidates in order row_end,
 * next_sibling_start, ancestor_end (only when after the start); the smallest wins, ties to the
 * earlier; an end not after the start gives a zero-length span clipped by 'self'.
 */
export function ongoingEnd(
  span: WalkSpan,
  byId: Map<string, WalkSpan>,
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
  for (const list of groups.values()) {
    list.sort(
      (a, b) =>
        a.start - b.start ||
        endKey(a) - endKey(b) ||
        comparePyStr(a.name || 'span', b.name || 'span'),
    );
  }
  return groups;
}

/** The first sibling (other than the span) that starts later. */
function nextSiblingStart(
  span: WalkSpan,
  siblingsByParent: Map<string | null, WalkSpan[]>,
): number | null {
  for (const sibling of siblingsByParent.get(span.parent) ?? []) {
    if (sibling !== span && sibling.start > span.start) return sibling.start;
  }
  return null;
}

/**
 * The nearest closed ancestor's end, walking past open ancestors, stopping at an unknown id.
 * slime's loop never ends on a cycle of open spans; we stop there instead.
 */
export function ancestorEnd(span: WalkSpan, byId: Map<string, WalkSpan>): number | null {
  const seen = new Set<string>();
  let parentId = span.parent;
  while (parentId !== null && !seen.has(parentId)) {
    const parent = byId.get(parentId);
    if (!parent) return null;
    if (parent.end !== null) return parent.end;
    seen.add(parentId);
    parentId = parent.parent;
  }
  return null;
}
