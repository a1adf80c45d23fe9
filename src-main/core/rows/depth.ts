import type { WalkSpan } from './collect-items';

/**
 * Step 5: a span with no known parent has depth 0, else its parent's depth + 1, memoised;
 * closed spans first (in the order they closed), then open ones; on a cycle, the span reached
 * again counts as 0 for that walk.
 */
export function spanDepths(spans: Map<string, WalkSpan>): Map<string, number> {
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const span = spans.get(id)!;
    const d = span.parent !== null && spans.has(span.parent) ? depth(span.parent) + 1 : 0;
    visiting.delete(id);
    memo.set(id, d);
    return d;
  };
  const all = [...spans.values()];
  const closed = all.filter((s) => s.end !== null).sort((a, b) => a.closeOrder - b.closeOrder);
  const open = all.filter((s) => s.end === null).sort((a, b) => a.order - b.order);
  for (const span of [...closed, ...open]) depth(span.spanId);
  return memo;
}
