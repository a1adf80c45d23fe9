import { describe, expect, it } from 'vitest';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildSlimeCache } from '../../../src-main/core/rows/slime-cache';
import type { PointItem, SpanItem } from '../../../src-main/core/model/row';
import { ev, sampleWith } from './events';

const span = (items: unknown[], name: string) =>
  items.find((i) => (i as SpanItem).name === name) as SpanItem;

describe('buildRows: samples to rows (TRACE_MODEL 3)', () => {
  it('records the clipping reason of each open span in end_attrs.clipped_by, end_ts stays null', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('span_start', 'parent', 0, { span_id: 'p' }),
        ev('span_start', 'open_child', 1, { span_id: 'c', parent_span_id: 'p' }),
        ev('span_start', 'sibling', 3, { span_id: 'd', parent_span_id: 'p' }),
        ev('span_end', 'sibling', 5, { span_id: 'd' }),
        ev('span_end', 'parent', 8, { span_id: 'p' }),
        ev('span_start', 'at_end', 12, { span_id: 'b', parent_span_id: 'p' }),
      ]),
    ]);
    const [row] = rows;
    const child = span(row.items, 'open_child');
    expect(child.state).toBe('open_span');
    expect(child.end_ts).toBeNull();
    expect(child.display_end_ts).toBe(3);
    expect(child.attrs.end_attrs.clipped_by).toBe('next_sibling_start');
    expect(span(row.items, 'at_end').attrs.end_attrs.clipped_by).toBe('self');
    expect(row.open_span_count).toBe(2);
    expect(row.closed_span_count).toBe(2);
  });

  it('items without attrs share one frozen empty attrs object; plain attrs are used as read, others converted', () => {
    const given = { bytes: 120 };
    const nested = { sizes: [1, 2], big: 2n ** 60n };
    const { rows } = buildRows([
      sampleWith([
        ev('span_start', 'bare', 0, { span_id: 'a' }),
        ev('event', 'note', 1, { attrs: given }),
        ev('event', 'nested', 1.2, { attrs: nested }),
        ev('event', 'plain', 1.5),
        ev('span_end', 'bare', 2, { span_id: 'a', attrs: {} }),
        ev('span_start', 'open', 3, { span_id: 'o' }),
      ]),
    ]);
    const [row] = rows;
    const bare = span(row.items, 'bare');
    const plain = row.items.find((i) => i.name === 'plain') as PointItem;
    expect(bare.attrs.start_attrs).toEqual({});
    expect(bare.attrs.end_attrs).toBe(bare.attrs.start_attrs);
    expect(plain.attrs).toBe(bare.attrs.start_attrs);
    expect(Object.isFrozen(plain.attrs)).toBe(true);
    const note = row.items.find((i) => i.name === 'note') as PointItem;
    // values toAttr keeps as they are: the dict itself (no copy per span start and end)
    expect(note.attrs).toBe(given);
    // a container or an int past 2^53 in them: converted, into an object of the item's own
    const converted = row.items.find((i) => i.name === 'nested') as PointItem;
    expect(converted.attrs).toEqual({ sizes: [1, 2], big: 2n ** 60n });
    expect(converted.attrs).not.toBe(nested);
    // an open span's end attrs are its own: they say what clipped it
    expect(span(row.items, 'open').attrs.end_attrs).toEqual({ clipped_by: 'self' });
  });

  it('sorts items by (lane, start, end, name) and puts points one below their parent', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('event', 'b_point', 1),
        ev('event', 'a_point', 1),
        ev('span_start', 'root', 0.5, { span_id: 'r' }),
        ev('event', 'inside', 2),
        ev('span_end', 'stray', 2.5, { span_id: 'zz' }),
        ev('span_end', 'root', 3, { span_id: 'r' }),
      ]),
    ]);
    const items = rows[0].items;
    expect(items.map((i) => [i.name, i.lane])).toEqual([
      ['root', 0],
      ['a_point', 0],
      ['b_point', 0],
      ['inside', 1],
      ['stray', 1],
    ]);
    const stray = items[4] as PointItem;
    expect(stray.type).toBe('orphan_end');
    expect(stray.parent_span_name).toBe('root');
    expect(rows[0].orphan_count).toBe(1);
    expect(rows[0].point_event_count).toBe(3);
  });

  it('rounds times to 6 decimals and computes the duration from the rounded extent', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('span_start', 's', 1760000000.0000024, { span_id: 's' }),
        ev('span_end', 's', 1760000001.0078125, { span_id: 's' }),
      ]),
    ]);
    const s = span(rows[0].items, 's');
    expect(s.start_ts).toBe(1760000000.000002);
    expect(s.end_ts).toBe(1760000001.007812);
    expect(rows[0].duration).toBe(1.00781);
  });

  it('counts response lengths from any attrs, and the row attempt is the trace’s', () => {
    const { rows } = buildRows([
      sampleWith(
        [
          ev('span_start', 'a', 0, { span_id: 'a', attrs: { response_length: 3.9 } }),
          ev('span_end', 'a', 1, { span_id: 'a', attrs: { response_length: 10 } }),
          ev('event', 'e', 2, { attrs: { response_length: true } }),
        ],
        {},
        { attempt: null },
      ),
    ]);
    expect(rows[0].total_response_length).toBe(14);
    expect(rows[0].max_response_length).toBe(10);
    expect(rows[0].attempt).toBe(0);
  });

  it('samples without a usable trace give no row but keep their position; index None is kept', () => {
    const { rows, untracedSamples } = buildRows([
      sampleWith([]),
      { index: 1, trace: 'not a dict' },
      { index: 2 },
      sampleWith([ev('event', 'no_ts', null)]),
      sampleWith([ev('event', 'ok', 1)], { index: null }),
      null,
    ]);
    expect(untracedSamples).toBe(5);
    expect(rows.map((r) => [r.row_id, r.sample_index])).toEqual([[4, null]]);
    const noIndex = buildRows([{ trace: { events: [ev('event', 'ok', 1)] } }]).rows[0];
    expect(noIndex.sample_index).toBe(0);
  });

  it('legacy flat PD keys on a closed span add virtual [P]/[D] spans on fresh lanes', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g1' }),
        ev('span_end', 'sglang_generate', 2, {
          span_id: 'g1',
          attrs: {
            pd_prefill_forward_duration: 0.5,
            pd_prefill_bootstrap_duration: 0,
            pd_decode_transfer_duration: -0.1,
            pd_decode_forward_duration: true,
          },
        }),
        ev('span_start', 'sglang_generate', 3, { span_id: 'g2' }),
        ev('span_end', 'sglang_generate', 4, {
          span_id: 'g2',
          attrs: { pd_prefill_forward_duration: 0.25 },
        }),
        ev('span_start', 'sglang_pd_x', 5, { span_id: 'x' }),
        ev('span_end', 'sglang_pd_x', 6, {
          span_id: 'x',
          attrs: { pd_prefill_forward_duration: 1 },
        }),
        ev('span_start', 'sglang_generate', 7, {
          span_id: 'open',
          attrs: { pd_decode_forward_duration: 9 },
        }),
      ]),
    ]);
    const row = rows[0];
    const virtual = row.items.filter((i) => i.name.endsWith(']')) as SpanItem[];
    expect(virtual.map((v) => [v.name, v.span_id, v.lane])).toEqual([
      ['sglang_generate [P]', 'g1:pd:prefill', 1],
      ['sglang_generate [D]', 'g1:pd:decode', 2],
      ['sglang_generate [P]', 'g2:pd:prefill', 3],
    ]);
    expect(virtual[0].attrs.end_attrs).toEqual({
      pd_prefill_forward_duration: 0.5,
      timeline_pd_virtual_role: 'prefill',
      timeline_pd_parent_name: 'sglang_generate',
      timeline_pd_parent_duration: 2,
    });
    expect(virtual[1].attrs.end_attrs.pd_decode_forward_duration).toBe(true);
    expect(row.lane_count).toBe(4);
    expect(row.closed_span_count).toBe(6);
  });

  it('slime cache: sample_count counts rows, global extent over rows, (ours) extras stripped', () => {
    const samples = [
      sampleWith([ev('event', 'a', 5)]),
      { index: 1 },
      sampleWith([
        ev('span_start', 's', 2, { span_id: 's' }),
        ev('span_end', 's', 9, { span_id: 's' }),
      ]),
    ];
    const cache = buildSlimeCache({ samples }, '/x.pt', 123);
    expect(cache).toMatchObject({
      cache_version: 1,
      pt_path: '/x.pt',
      generated_at: 123,
      sample_count: 2,
      global_start: 2,
      global_end: 9,
    });
    expect(cache.rows.map((r) => r.row_id)).toEqual([0, 2]);
    const empty = buildSlimeCache({ samples: [] }, '/e.pt', 0);
    expect([empty.global_start, empty.global_end, empty.rows.length]).toEqual([null, null, 0]);
  });
});

describe('deliberate differences from slime’s viewer (none occur in slime-written dumps)', () => {
  it('a missing event name is "" (slime: null, which its own sort can then fail on)', () => {
    const { rows } = buildRows([sampleWith([{ type: 'event', ts: 1 }])]);
    expect(rows[0].items[0].name).toBe('');
  });

  it('non-string span ids and trace ids become strings (slime keeps the number)', () => {
    const { rows } = buildRows([
      sampleWith(
        [ev('span_start', 's', 1, { span_id: 7 }), ev('span_end', 's', 2, { span_id: 7 })],
        {},
        { trace_id: 42 },
      ),
    ]);
    expect((rows[0].items[0] as SpanItem).span_id).toBe('7');
    expect(rows[0].trace_id).toBe('42');
  });

  it('a cycle of open ancestors ends the ancestor walk (slime loops forever)', () => {
    const { rows } = buildRows([
      sampleWith([
        ev('span_start', 'a', 1, { span_id: 'a', parent_span_id: 'b' }),
        ev('span_start', 'b', 2, { span_id: 'b', parent_span_id: 'a' }),
        ev('event', 'late', 3),
      ]),
    ]);
    expect(span(rows[0].items, 'a').attrs.end_attrs.clipped_by).toBe('row_end');
  });
});
