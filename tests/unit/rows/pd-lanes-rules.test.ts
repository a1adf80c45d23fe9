import { describe, expect, it } from 'vitest';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import type { Row, RowItem, SpanItem } from '../../../src-main/core/model/row';
import { point, row, span } from './hand-rows';

/** The item named `name` in a view (exactly one). */
function named(view: Row, name: string): RowItem {
  const found = view.items.filter((i) => i.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}
const pdOf = (view: Row, name: string) => (named(view, name) as SpanItem).pd;

describe('buildPdView on hand-built rows (TRACE_MODEL 4)', () => {
  it('a role span’s phases come from its phase children: their duration key, else their own length', () => {
    const raw = row(0, [
      span('kv_note', 1.3, 1.4, { parent: 'p', lane: 3 }), // a child that is no phase: kept
      span('sglang_generate', 0.5, 4.5, { id: 'g', lane: 0 }),
      // a second end of g (an unmatched end) is no parent span
      { ...point('sglang_generate', 4.6), type: 'orphan_end', state: 'orphan_end', span_id: 'g' },
      span('sglang_pd_prefill', 0.5, 1.5, { id: 'p', parent: 'g', lane: 1 }),
      span('sglang_pd_prefill_bootstrap_queue', 0.5, 0.75, {
        parent: 'p',
        lane: 2,
        endAttrs: { pd_prefill_bootstrap_queue_duration: 0.2 }, // the key wins over 0.25 s
      }),
      span('sglang_pd_prefill_forward', 0.75, 1.25, { parent: 'p', lane: 2 }), // no key: 0.5 s
      span('sglang_pd_prefill_alloc_wait', 1.25, 1.25, {
        parent: 'p',
        lane: 2,
        endAttrs: { pd_prefill_alloc_wait_duration: 0 }, // zero: no phase
      }),
      span('my_sglang_pd_prefill_transfer_queue', 1.4, 1.5, { parent: 'p', lane: 3 }), // kept
      point('sglang_pd_prefill_transfer_queue', 1.45, { parent: 'p', lane: 3 }), // a point: kept
      // a role span without an id or a parent: no phases, its own length
      span('sglang_pd_decode', 1.5, 4.5, { lane: 1 }),
      // phase-named, but its parent is no role span: a real span
      span('sglang_pd_decode_forward', 2, 3, { parent: 'g', lane: 3 }),
      span('my_sglang_pd_decode', 3, 4, { id: 'm', lane: 3 }), // not a role span
    ]);
    const view = buildPdView(raw);
    expect(pdOf(view, 'sglang_pd_prefill')).toEqual({
      role: 'prefill',
      phases: [
        { phase: 'bootstrap_queue', durationSec: 0.2 },
        { phase: 'forward', durationSec: 0.5 },
      ],
      parentDurationSec: 4, // its request, sglang_generate 0.5-4.5
    });
    expect(pdOf(view, 'sglang_pd_decode')).toEqual({
      role: 'decode',
      phases: [],
      parentDurationSec: 3,
    });
    // the phase children became segments; everything else stays, real lanes 0 and 3 closed up
    // to 0 and 1, then one [P] lane and one [D] lane
    expect(view.items.map((i) => [i.name, i.lane])).toEqual([
      ['sglang_generate', 0],
      ['sglang_generate', 0],
      ['kv_note', 1],
      ['my_sglang_pd_prefill_transfer_queue', 1],
      ['sglang_pd_prefill_transfer_queue', 1],
      ['sglang_pd_decode_forward', 1],
      ['my_sglang_pd_decode', 1],
      ['sglang_pd_prefill', 2],
      ['sglang_pd_decode', 3],
    ]);
    expect(pdOf(view, 'sglang_pd_decode_forward')).toBeUndefined();
    expect(pdOf(view, 'my_sglang_pd_decode')).toBeUndefined();
    expect([view.lane_count, view.item_count]).toEqual([4, 9]);
    // the row given is not changed
    expect(raw.items).toHaveLength(12);
    expect((raw.items[3] as SpanItem).pd).toBeUndefined();
  });

  it('slime’s virtual spans: phases from their request’s flat keys, packed by start into the first free lane', () => {
    const request = span('sglang_generate', 0, 4, {
      id: 'g',
      lane: 0,
      endAttrs: {
        pd_prefill_forward_duration: 0.5,
        pd_bootstrap_duration: 0.25, // an older prefill key: never a decode phase
        pd_decode_forward_duration: 1,
      },
    });
    const virtual = (name: string, start: number, end: number, lane: number, extra = {}) =>
      span(name, start, end, {
        id: `${name}:pd:prefill`,
        parent: 'g',
        lane,
        endAttrs: { timeline_pd_virtual_role: 'prefill', ...extra },
      });
    const raw = row(0, [
      request,
      virtual('v3', 1, 3, 3),
      // slime names its [P] span `<request id>:pd:prefill`: no [P] of ours for g
      { ...virtual('v1', 0, 2, 1, { timeline_pd_parent_duration: 2 }), span_id: 'g:pd:prefill' },
      virtual('v2', 2, 4, 2), // starts as v1 ends: v1's lane
      span('own', 5, 6, {
        lane: 4,
        endAttrs: {
          timeline_pd_virtual_role: 'decode',
          pd_decode_prealloc_duration: 0.125,
          pd_bootstrap_duration: 0.25,
        },
      }),
    ]);
    const view = buildPdView(raw);
    expect(pdOf(view, 'v1')).toEqual({
      role: 'prefill',
      phases: [
        { phase: 'bootstrap', durationSec: 0.25 },
        { phase: 'forward', durationSec: 0.5 },
      ],
      parentDurationSec: 2,
    });
    expect(pdOf(view, 'v3')!.parentDurationSec).toBe(0);
    // no parent: its own flat keys; the older key stays a prefill key
    expect(pdOf(view, 'own')).toEqual({
      role: 'decode',
      phases: [{ phase: 'prealloc', durationSec: 0.125 }],
      parentDurationSec: 0,
    });
    expect(view.items.map((i) => [i.name, i.lane])).toEqual([
      ['sglang_generate', 0],
      ['v1', 1],
      ['v2', 1],
      ['v3', 2],
      ['own', 3],
    ]);
    expect(view.lane_count).toBe(4);
  });

  it('older dumps: a closed request with an unprefixed prefill key gets a [P] span of ours', () => {
    const older = (name: string, id: string, attrs: SpanItem['attrs']['end_attrs'], extra = {}) =>
      span(name, 1, 3, { id, endAttrs: attrs, ...extra });
    const raw = row(0, [
      older('sglang_generate', 'a', { pd_alloc_waiting_duration: 0.5 }), // one key is enough
      older('sglang_generate', 'b', { pd_bootstrap_duration: 0.5 }, { endTs: null }), // open
      older('sglang_pd_summary', 'c', { pd_bootstrap_duration: 0.5 }), // slime's own PD span
      older('sglang_generate', 'd', { pd_bootstrap_duration: true }), // True: 1 s
      older('sglang_generate', 'e', { pd_bootstrap_duration: '0.5', pd_alloc_waiting_duration: 0 }),
      older('sglang_generate', 'f', { pd_bootstrap_duration: 0.5 }),
      // slime already drew f's [P]: not a second one
      span('sglang_generate [P]', 1, 3, {
        id: 'f:pd:prefill',
        parent: 'f',
        lane: 1,
        endAttrs: { timeline_pd_virtual_role: 'prefill' },
      }),
    ]);
    const added = buildPdView(raw).items.filter(
      (i): i is SpanItem => i.type === 'span' && i.span_id!.endsWith(':pd:prefill'),
    );
    expect(added.map((s) => s.span_id)).toEqual(['f:pd:prefill', 'a:pd:prefill', 'd:pd:prefill']);
    expect(added[1]).toEqual({
      ...raw.items[0],
      name: 'sglang_generate [P]',
      span_id: 'a:pd:prefill',
      parent_span_id: 'a',
      parent_span_name: 'sglang_generate',
      lane: 2, // below slime's [P] of f: all three start at 1
      attrs: { start_attrs: {}, end_attrs: { timeline_pd_virtual_role: 'prefill' } },
      pd: {
        role: 'prefill',
        phases: [{ phase: 'alloc_wait', durationSec: 0.5 }],
        parentDurationSec: 2,
      },
    });
    expect(added[2].pd!.phases).toEqual([{ phase: 'bootstrap', durationSec: 1 }]);
  });
});
