import type { WalkSpan } from './collect-items';

/**
 * Step 5: a span with no known parent has depth 0, else its parent's depth + 1, memoised by
 * id, resolved in the walk's span order (closed spans in closing order, then open ones). On a
 * cycle the span reached again counts as 0 for that walk; its own depth is then set by the
 * walk that started at it.
 */
export function spanDepths(spans: WalkSpan[], byId: Map<string, WalkSpan>): Map<string, number> {
  const memo = new Map<string, number>();
  const resolve = (id: string, seen: Set<string>): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const parent = byId.get(id)!.parent;
    const depth = parent !== null && byId.has(parent) ? resolve(parent, seen) + 1 : 0;
    memo.set(id, depth);
    return depth;
  };
  for (const span of spans) resolve(span.spanId, new Set());
  return memo;
}

/** An instant event or unmatched end sits one below its parent span, or at 0 without one. */
export function pointDepth(parent: string | null, depths: Map<string, number>): number {
  const parentDepth = parent === null ? undefined : depths.get(parent);
  return parentDepth === undefined ? 0 : parentDepth + 1;
}
