import { describe, expect, it } from 'vitest';
import { walkEvents, type WalkSpan } from '../../../src-main/core/rows/collect-items';
import { groupSiblings, ongoingEnd } from '../../../src-main/core/rows/ongoing-end';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { ev, walked } from './events';

/** The drawn end and reason of the open span named `name` in these events. */
function clip(events: PyValue[], name: string) {
  const walk = walkEvents(events, 0);
  const span = walk.spans.find((s) => s.name === name)!;
  expect(span.end).toBeNull();
  return ongoingEnd(span, walk.byId, groupSiblings(walk.spans), walk.maxTs);
}

describe('ongoingEnd (TRACE_MODEL 3, step 4)', () => {
  it('row_end: the latest kept ts', () => {
    expect(
      clip(
        [
          ev('span_start', 'open', 1, { span_id: 'o' }),
          ev('event', 'late', 9, { parent_span_id: 'zz' }),
        ],
        'open',
      ),
    ).toEqual({ end: 9, reason: 'row_end' });
  });

  it('next_sibling_start: the first sibling (same parent) that starts later', () => {
    const events = [
      ev('span_start', 'parent', 0, { span_id: 'p' }),
      ev('span_start', 'open', 1, { span_id: 'o', parent_span_id: 'p' }),
      ev('span_start', 'same_start', 1, { span_id: 's0', parent_span_id: 'p' }),
      ev('span_end', 'same_start', 2, { span_id: 's0' }),
      ev('span_start', 'sibling', 3, { span_id: 's', parent_span_id: 'p' }),
      ev('span_end', 'sibling', 4, { span_id: 's' }),
      ev('span_start', 'cousin', 2, { span_id: 'c', parent_span_id: 'elsewhere' }),
      ev('span_end', 'cousin', 2.5, { span_id: 'c' }),
      ev('span_end', 'parent', 8, { span_id: 'p' }),
    ];
    expect(clip(events, 'open')).toEqual({ end: 3, reason: 'next_sibling_start' });
  });

  it('ancestor_end: the nearest closed ancestor, walking past open ones', () => {
    const events = [
      ev('span_start', 'root', 0, { span_id: 'g' }),
      ev('span_start', 'open_mid', 1, { span_id: 'o1', parent_span_id: 'g' }),
      ev('span_start', 'open_leaf', 2, { span_id: 'o2', parent_span_id: 'o1' }),
      ev('span_end', 'root', 4, { span_id: 'g' }),
      ev('event', 'late', 6),
    ];
    expect(clip(events, 'open_leaf')).toEqual({ end: 4, reason: 'ancestor_end' });
    expect(clip(events, 'open_mid')).toEqual({ end: 4, reason: 'ancestor_end' });
  });

  it('an ancestor that ended before the start is no candidate', () => {
    const events = [
      ev('span_start', 'root', 0, { span_id: 'g' }),
      ev('span_end', 'root', 1, { span_id: 'g' }),
      ev('span_start', 'late_child', 2, { span_id: 'l', parent_span_id: 'g' }),
      ev('event', 'later', 5),
    ];
    expect(clip(events, 'late_child')).toEqual({ end: 5, reason: 'row_end' });
  });

  it('self: a span starting at the row end has zero length', () => {
    const events = [ev('event', 'first', 1), ev('span_start', 'last', 3, { span_id: 'l' })];
    expect(clip(events, 'last')).toEqual({ end: 3, reason: 'self' });
  });

  it('ties go to the earlier candidate: row_end before next_sibling_start before ancestor_end', () => {
    const events = [
      ev('span_start', 'root', 0, { span_id: 'g' }),
      ev('span_start', 'open', 1, { span_id: 'o', parent_span_id: 'g' }),
      ev('span_start', 'sibling', 5, { span_id: 's', parent_span_id: 'g' }),
      ev('span_end', 'sibling', 5, { span_id: 's' }),
      ev('span_end', 'root', 5, { span_id: 'g' }),
    ];
    expect(clip(events, 'open')).toEqual({ end: 5, reason: 'row_end' });
    const noRowTie = [...events, ev('event', 'late', 7)];
    expect(clip(noRowTie, 'open')).toEqual({ end: 5, reason: 'next_sibling_start' });
  });

  it('the ancestor walk stops at an unknown id and on a cycle of open spans', () => {
    const unknown = [
      ev('span_start', 'open', 1, { span_id: 'o', parent_span_id: 'missing' }),
      ev('event', 'late', 3),
    ];
    expect(clip(unknown, 'open')).toEqual({ end: 3, reason: 'row_end' });
    const cycle = [
      ev('span_start', 'a', 1, { span_id: 'a', parent_span_id: 'b' }),
      ev('span_start', 'b', 2, { span_id: 'b', parent_span_id: 'a' }),
      ev('event', 'late', 3),
    ];
    expect(clip(cycle, 'a')).toEqual({ end: 3, reason: 'row_end' });
  });
});

describe('groupSiblings', () => {
  it('groups by parent (roots together) and sorts by start, end (none or 0: last), name, then walk order', () => {
    const spans = [
      walked('s1', 'b', 2, 5, 'p'),
      walked('s2', 'z', 1, 9, 'p'),
      walked('s3', 'a', 2, null, 'p'), // never ended: after every end
      walked('s4', 'c', 2, 3, 'p'),
      walked('s5', 'a', 2, 5, 'p'),
      walked('s6', '', 2, 5, 'p'), // no name sorts as "span"
      walked('s7', 'sp', 2, 5, 'p'),
      walked('s8', 'x', 2, 0, 'p'), // Python's `end_ts or inf`: an end of 0 is none
      walked('s9', 'same', 3, 4, 'p'),
      walked('s10', 'same', 3, 4, 'p'), // a full tie keeps the walk order
      walked('r1', 'root', 5, 6, null),
      walked('r2', 'root', 1, 2, null),
    ];
    const groups = groupSiblings(spans);
    expect([...groups.keys()]).toEqual(['p', null]);
    expect(groups.get('p')!.map((s) => s.spanId)).toEqual([
      's2',
      's4',
      's5',
      's1',
      's7',
      's6',
      's3',
      's8',
      's9',
      's10',
    ]);
    expect(groups.get(null)!.map((s) => s.spanId)).toEqual(['r2', 'r1']);
  });
});

describe('ongoingEnd on hand-walked spans', () => {
  it('self when there is no candidate at all (no finite row end, no sibling, no ancestor)', () => {
    const open = walked('o', 'open', 4, null, null);
    expect(ongoingEnd(open, new Map(), new Map(), -Infinity)).toEqual({ end: 4, reason: 'self' });
  });

  it('an ancestor that ends exactly at the start is no candidate', () => {
    const parent = walked('p', 'parent', 0, 2, null);
    const open = walked('o', 'open', 2, null, 'p');
    const byId = new Map([
      ['p', parent],
      ['o', open],
    ]);
    expect(ongoingEnd(open, byId, groupSiblings([parent, open]), 9)).toEqual({
      end: 9,
      reason: 'row_end',
    });
  });

  it('the next sibling is the first in sibling order to start later, whatever the order', () => {
    const siblings = [
      walked('o', 'open', 4, null, 'p'),
      walked('a', 'a', 6, 7, 'p'),
      walked('b', 'b', 1, 2, 'p'),
      walked('c', 'c', 5, 6, 'p'),
    ];
    const bySibling = new Map<string | null, WalkSpan[]>([['p', siblings]]);
    expect(ongoingEnd(siblings[0], new Map(), bySibling, 9)).toEqual({
      end: 6,
      reason: 'next_sibling_start',
    });
  });
});
