import { describe, expect, it } from 'vitest';
import { walkEvents } from '../../../src-main/core/rows/collect-items';
import { pointDepth, spanDepths } from '../../../src-main/core/rows/depth';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { ev, walked } from './events';

function depths(events: PyValue[]) {
  const walk = walkEvents(events, 0);
  spanDepths(walk.spans, walk.byId);
  return Object.fromEntries(walk.spans.map((s) => [s.name, s.depth]));
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

  it('a cycle and a chain longer than a short path: the same rule, checked through a set', () => {
    // root, c0 -> c1 -> ... -> c39 -> c0, then t0 -> ... -> t19 -> root: paths of 40
    // and 20 ids (spanDepths looks through paths of up to 16 as they are, longer ones in a set)
    const cycle = Array.from({ length: 40 }, (_, i) =>
      ev('span_start', `c${i}`, i, { span_id: `c${i}`, parent_span_id: `c${(i + 1) % 40}` }),
    );
    const chain = Array.from({ length: 20 }, (_, i) =>
      ev('span_start', `t${i}`, 40 + i, {
        span_id: `t${i}`,
        parent_span_id: i === 19 ? 'root' : `t${i + 1}`,
      }),
    );
    const got = depths([ev('span_start', 'root', 0, { span_id: 'root' }), ...cycle, ...chain]);
    // open spans resolve in the order their ids opened: the walk from c0 goes round to c0
    // again (counted 0 there), so c39 is 1 and c0 40; t0's walk ends at the root (0)
    const want: Record<string, number> = { root: 0 };
    for (let i = 0; i < 40; i++) want[`c${i}`] = 40 - i;
    for (let i = 0; i < 20; i++) want[`t${i}`] = 20 - i;
    expect(got).toEqual(want);
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
    const span = (spanId: string, parent: string) => walked(spanId, spanId, 0, 1, parent);
    const spans = [span('b', 'a'), span('x', 'a'), span('a', 'b')];
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const s of spans) s.up = byId.get(s.parent!) ?? null;
    spanDepths(spans, byId);
    expect(Object.fromEntries(spans.map((s) => [s.spanId, s.depth]))).toEqual({
      a: 1,
      b: 2,
      x: 2,
    });
  });

  it('a closed span whose id opened again takes the later span depth (depths are by id)', () => {
    // "old" sat under r, but x now finds "new" (a root): the depth memoised by id is new's
    expect(
      depths([
        ev('span_start', 'r', 0, { span_id: 'r' }),
        ev('span_start', 'old', 1, { span_id: 'x' }),
        ev('span_end', 'old', 2, { span_id: 'x' }),
        ev('span_end', 'r', 3, { span_id: 'r' }),
        ev('span_start', 'new', 4, { span_id: 'x' }),
        ev('span_start', 'child', 5, { span_id: 'c' }),
      ]),
    ).toEqual({ old: 0, r: 0, new: 0, child: 1 });
  });

  it('instant events and orphans sit one below their parent span, or at 0', () => {
    const walk = walkEvents(
      [
        ev('span_start', 'a', 0, { span_id: 'a' }),
        ev('span_start', 'b', 1, { span_id: 'b' }),
        ev('span_start', 'p', 2, { span_id: 'p' }),
      ],
      0,
    );
    spanDepths(walk.spans, walk.byId);
    expect(pointDepth(walk.byId.get('p'))).toBe(3);
    expect(pointDepth(walk.byId.get('unknown'))).toBe(0);
    expect(pointDepth(undefined)).toBe(0);
  });
});
