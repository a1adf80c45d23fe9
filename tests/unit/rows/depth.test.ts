import { describe, expect, it } from 'vitest';
import { walkEvents, type WalkSpan } from '../../../src-main/core/rows/collect-items';
import { pointDepth, spanDepths } from '../../../src-main/core/rows/depth';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { ev } from './events';

function depths(events: PyValue[]) {
  const walk = walkEvents(events, 0);
  const byId = spanDepths(walk.spans, walk.byId);
  return Object.fromEntries(walk.spans.map((s) => [s.name, byId.get(s.spanId)]));
}

describe('spanDepths and pointDepth (TRACE_MODEL 3, step 5)', () => {
  it('roots and spans with an unknown parent are 0; children are their parent + 1', () => {
    expect(
      depths([
        ev('span_start', 'root', 0, { span_id: 'r' }),
        ev('span_start', 'child', 1, { span_id: 'c' }),
        ev('span_start', 'grandchild', 2, { span_id: 'g' }),
        ev('span_end', 'grandchild', 3, { span_id: 'g' }),
        ev('span_end', 'child', 4, { span_id: 'c' }),
        ev('span_end', 'root', 5, { span_id: 'r' }),
        ev('span_start', 'orphaned', 6, { span_id: 'o', parent_span_id: 'nope' }),
      ]),
    ).toEqual({ root: 0, child: 1, grandchild: 2, orphaned: 0 });
  });

  it('a parent cycle: the span reached again counts as 0, closed spans resolved first in closing order', () => {
    // x -> y -> x, z under y; closing order z, y, x (the edge_cases.pt cycle). The depths are
    // slime's viewer's: tests/fixtures/slime/edge_cases.pt.expected.json, trace edge-cycle
    // (x 1, y 2, z 3), checked there by tests/golden/slime-rows.test.ts as well.
    expect(
      depths([
        ev('span_start', 'x', 0, { span_id: 'x', parent_span_id: 'y' }),
        ev('span_start', 'y', 1, { span_id: 'y', parent_span_id: 'x' }),
        ev('span_start', 'z', 2, { span_id: 'z', parent_span_id: 'y' }),
        ev('span_end', 'z', 3, { span_id: 'z' }),
        ev('span_end', 'y', 4, { span_id: 'y' }),
        ev('span_end', 'x', 5, { span_id: 'x' }),
      ]),
    ).toEqual({ z: 3, y: 2, x: 1 });
  });

  it('a span that is its own parent (re-opened id) sits at 1', () => {
    // slime's viewer: edge_cases.pt.expected.json, trace edge-dup (dup_second depth 1)
    expect(
      depths([
        ev('span_start', 'first', 0, { span_id: 's' }),
        ev('span_start', 'second', 1, { span_id: 's' }),
        ev('span_end', 'second', 2, { span_id: 's' }),
      ]),
    ).toEqual({ second: 1 });
  });

  it('a walk that reaches a span resolved on an earlier walk stops there', () => {
    // walk order b, x, a: b -> a -> b again (0 for that walk): a 1, b 2; then x under a: 2
    const span = (spanId: string, parent: string): WalkSpan => ({
      spanId,
      name: spanId,
      start: 0,
      end: 1,
      parent,
      startAttrs: {},
      endAttrs: {},
      attempt: 0,
    });
    const spans = [span('b', 'a'), span('x', 'a'), span('a', 'b')];
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    expect(Object.fromEntries(spanDepths(spans, byId))).toEqual({ a: 1, b: 2, x: 2 });
  });

  it('instant events and orphans sit one below their parent span, or at 0', () => {
    const d = new Map([['p', 2]]);
    expect(pointDepth('p', d)).toBe(3);
    expect(pointDepth('unknown', d)).toBe(0);
    expect(pointDepth(null, d)).toBe(0);
  });
});
