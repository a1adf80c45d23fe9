import type { WalkSpan } from './collect-items';

/**
 * Step 5: a span with no known parent has depth 0, else its parent's depth + 1, memoised by
 * id, resolved in the walk's span order (closed spans in closing order, then open ones). On a
 * cycle the span reached again counts as 0 for that walk; its own depth is then set by the
 * walk that started at it. Sets each span's `depth`; an id's depth is that of the span the id
 * finds (`byId`), so a span whose id was taken by a later one gets the later one's. The memo
 * is the spans' own field and a parent is the span's `up`: no map of ids per row.
 */
export function spanDepths(spans: WalkSpan[], byId: ReadonlyMap<string, WalkSpan>): void {
  // iterative, not recursive: a chain of 200,000 spans is a valid (if hostile) trace
  const path: WalkSpan[] = [];
  // the spans on a long path, for its cycle check (a row's paths are a few spans long: looked
  // through as they are, with no set cleared per span)
  let seen: Set<WalkSpan> | null = null;
  for (const span of spans) {
    // the span its id finds: itself, but for an id opened again later
    let node: WalkSpan | null = span.superseded ? byId.get(span.spanId)! : span;
    if (node.depth >= 0) continue;
    path.length = 0;
    seen?.clear();
    // the depth of the last span on the path, once the walk up stops
    let below = 0;
    while (node !== null) {
      if (node.depth >= 0) {
        below = node.depth + 1;
        break;
      }
      if (seen !== null ? seen.has(node) : path.includes(node)) {
        below = 1; // the span reached again counts as 0 for this walk
        break;
      }
      path.push(node);
      if (seen !== null) seen.add(node);
      else if (path.length > SHORT_PATH) seen = new Set(path);
      node = node.up;
      if (node === null) below = 0;
    }
    for (let i = path.length - 1; i >= 0; i--) path[i].depth = below++;
  }
  for (const span of spans) if (span.superseded) span.depth = byId.get(span.spanId)!.depth;
}

/** paths up to this many spans are checked for a cycle by looking through them */
const SHORT_PATH = 16;

/** An instant event or unmatched end sits one below its parent span, or at 0 without one. */
export function pointDepth(parent: WalkSpan | undefined): number {
  return parent === undefined ? 0 : parent.depth + 1;
}
