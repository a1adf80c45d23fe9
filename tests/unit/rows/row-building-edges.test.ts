import { describe, expect, it } from 'vitest';
import { buildRows, compareItems, rowCounts } from '../../../src-main/core/rows/build-rows';
import { ev, sampleWith } from './events';
import { point, span } from './hand-rows';

describe('buildRows: edges of TRACE_MODEL 3', () => {
  it('counts events skipped for an id, parent, type or name that is a dict or list, over all samples', () => {
    const { rows, skippedEvents } = buildRows([
      sampleWith([
        ev('span_start', 'bad_id', 0, { span_id: { a: 1 } }),
        ev('event', 'bad_parent', 1, { parent_span_id: [1] }),
        ev({ x: 1 } as never, 'bad_type', 2),
        ev('event', [1] as never, 3),
        ev('event', 'kept', 4),
      ]),
      sampleWith([ev('event', 'kept', 0), ev('event', 'bad_parent', 1, { parent_span_id: {} })]),
    ]);
    expect(skippedEvents).toBe(5);
    expect(rows.map((r) => r.items.map((i) => i.name))).toEqual([['kept'], ['kept']]);
  });

  it('a flat PD key that is a numeric string gives no virtual span (slime: int or float > 0)', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g' }),
        ev('span_end', 'sglang_generate', 1, {
          span_id: 'g',
          attrs: { pd_prefill_forward_duration: '0.5' },
        }),
      ]),
    ]);
    expect(rows[0].items.map((i) => i.name)).toEqual(['sglang_generate']);
  });

  it('a trace id None is no trace id', () => {
    const { rows } = buildRows([sampleWith([ev('event', 'e', 0)], {}, { trace_id: null })]);
    expect(rows[0].trace_id).toBeNull();
  });

  it('an event name None is ""', () => {
    const { rows } = buildRows([sampleWith([ev('event', null as never, 0)])]);
    expect(rows[0].items[0].name).toBe('');
  });

  it('an attempt that is no finite number counts as 0', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('event', 'nan', 0, { attempt: 'nan' }),
        ev('event', 'inf', 1, { attempt: 'inf' }),
        ev('event', 'float_nan', 2, { attempt: NaN }),
        ev('event', 'two', 3, { attempt: 2.7 }), // int(2.7)
      ]),
    ]);
    expect(rows[0].items.map((i) => [i.name, i.attempt])).toEqual([
      ['nan', 0],
      ['inf', 0],
      ['float_nan', 0],
      ['two', 2],
    ]);
  });

  it('the largest response length is 0 only when there is none (max(lengths, default=0))', () => {
    const { rows } = buildRows([
      sampleWith([ev('event', 'none', 0)]),
      sampleWith([ev('event', 'negative', 0, { attrs: { response_length: -5 } })]),
    ]);
    expect(rows.map((r) => [r.total_response_length, r.max_response_length])).toEqual([
      [0, 0],
      [-5, -5],
    ]);
  });
});

describe('rowCounts', () => {
  it('extent and lanes over items in any order, points included', () => {
    const counts = rowCounts([
      span('deep', 1, 5, { lane: 2 }),
      point('first', 0.5, { lane: 0 }),
      span('mid', 2, 3, { lane: 1 }),
    ]);
    expect([counts.start, counts.end, counts.duration, counts.lane_count]).toEqual([
      0.5, 5, 4.5, 3,
    ]);
  });
});

describe('compareItems: (lane, start, end, name), a point starting and ending at its ts', () => {
  it('a point at a span’s start but ending earlier goes first, whatever the names', () => {
    const s = span('a', 1, 3);
    const p = point('b', 1);
    expect(compareItems(p, s)).toBeLessThan(0);
    expect(compareItems(s, p)).toBeGreaterThan(0);
  });

  it('a span that starts before a point goes first, though it ends after it', () => {
    const s = span('b', 1, 5);
    const p = point('a', 3);
    expect(compareItems(s, p)).toBeLessThan(0);
    expect(compareItems(p, s)).toBeGreaterThan(0);
  });
});
