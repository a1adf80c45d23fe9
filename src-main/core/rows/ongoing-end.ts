import type { ClipReason } from '../model/row';
import type { WalkSpan } from './collect-items';

/**
 * Step 4: where an ongoing span is drawn to end. Candidates in order row_end,
 * next_sibling_start, ancestor_end; the smallest wins, ties to the earlier; an end not after
 * the start gives a zero-length span clipped by 'self'.
 */
export function ongoingEnd(
  span: WalkSpan,
  spans: Map<string, WalkSpan>,
  siblingsByParent: Map<string | null, WalkSpan[]>,
  rowEnd: number,
): { end: number; reason: ClipReason } {
  const candidates: [ClipReason, number | null][] = [
    ['row_end', rowEnd],
    ['next_sibling_start', nextSiblingStart(span, siblingsByParent)],
    ['ancestor_end', ancestorEnd(span, spans)],
  ];
  let best: { end: number; reason: ClipReason } | null = null;
  for (const [reason, end] of candidates) {
    if (end === null) continue;
    if (best === null || end < best.end) best = { end, reason };
  }
  if (best === null || !(best.end > span.start)) return { end: span.start, reason: 'self' };
  return best;
}

/** Spans with the same parent (roots together), sorted by (start, end or +inf, name). */
export function groupSiblings(spans: Iterable<WalkSpan>): Map<string | null, WalkSpan[]> {
  const groups = new Map<string | null, WalkSpan[]>();
  for (const span of spans) {
    const list = groups.get(span.parent) ?? [];
    list.push(span);
    groups.set(span.parent, list);
  }
  for (const list of groups.values()) {
    list.sort(
      (a, b) =>
        a.start - b.start ||
        (a.end ?? Infinity) - (b.end ?? Infinity) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  }
  return groups;
}

function nextSiblingStart(
  span: WalkSpan,
  siblingsByParent: Map<string | null, WalkSpan[]>,
): number | null {
  for (const sibling of siblingsByParent.get(span.parent) ?? []) {
    if (sibling.start > span.start) return sibling.start;
  }
  return null;
}

/** The nearest closed ancestor's end, walking past open ancestors, stopping at an unknown id. */
function ancestorEnd(span: WalkSpan, spans: Map<string, WalkSpan>): number | null {
  const seen = new Set<string>([span.spanId]);
  let parentId = span.parent;
  while (parentId !== null && !seen.has(parentId)) {
    const parent = spans.get(parentId);
    if (!parent) return null;
    if (parent.end !== null) return parent.end;
    seen.add(parentId);
    parentId = parent.parent;
  }
  return null;
}
