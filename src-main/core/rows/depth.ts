import type { WalkSpan } from './collect-items';

/**
 * Step 5: a span with no known parent has depth 0, else its parent's depth + 1, memoised by
 * id, resolved in the walk's span order (closed spans in closing order, then open ones). On a
 * cycle the span reached again counts as 0 for that walk; its own depth is then set by the
 * walk that started at it.
 */
export function spanDepths(spans: WalkSpan[], byId: Map<string, WalkSpan>): Map<string, number> {
  const memo = new Map<string, number>();
  // iterative, not recursive: a chain of 200,000 spans is a valid (if hostile) trace
  const path: string[] = [];
  // the ids on a long path, for its cycle check (a row's paths are a few ids long: looked
  // through as they are, with no set cleared per span)
  let seen: Set<string> | null = null;
  for (const span of spans) {
    if (memo.has(span.spanId)) continue;
    path.length = 0;
    seen?.clear();
    let id: string | null = span.spanId;
    // the depth of the last id on the path, once the walk up stops
    let below = 0;
    while (id !== null) {
      const known = memo.get(id);
      if (known !== undefined) {
        below = known + 1;
        break;
      }
      if (seen !== null ? seen.has(id) : path.includes(id)) {
        below = 1; // the id reached again counts as 0 for this walk
        break;
      }
      path.push(id);
      if (seen !== null) seen.add(id);
      else if (path.length > SHORT_PATH) seen = new Set(path);
      const parent: string | null = byId.get(id)!.parent;
      id = parent !== null && byId.has(parent) ? parent : null;
      if (id === null) below = 0;
    }
    for (let i = path.length - 1; i >= 0; i--) memo.set(path[i], below++);
  }
  return memo;
}

/** paths up to this many ids are checked for a cycle by looking through them */
const SHORT_PATH = 16;

/** An instant event or unmatched end sits one below its parent span, or at 0 without one. */
export function pointDepth(parent: string | null, depths: Map<string, number>): number {
  const parentDepth = parent === null ? undefined : depths.get(parent);
  return parentDepth === undefined ? 0 : parentDepth + 1;
}
