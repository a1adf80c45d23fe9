import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildPdView, PD_PHASES } from '../../../src-main/core/rows/pd-lanes';
import { perfSeries } from '../../../src-main/core/rows/perf-summary';
import type { PyValue } from '../../../src-main/core/model/py-value';
import type { Row, SpanItem } from '../../../src-main/core/model/row';
import { ev, sampleWith } from './events';

const pdSpans = (row: Row) =>
  row.items.filter((i): i is SpanItem => i.type === 'span' && i.pd !== undefined);

/** one current-style request: sglang_generate with sglang_pd_prefill / _decode phase children */
function currentRequest(id: string, t0: number, prefill: number[], decode: number[]): PyValue[] {
  const out: PyValue[] = [ev('span_start', 'sglang_generate', t0, { span_id: id })];
  let t = t0;
  const role = (name: 'prefill' | 'decode', phases: string[], durations: number[]) => {
    out.push(
      ev('span_start', `sglang_pd_${name}`, t, { span_id: `${id}${name}`, parent_span_id: id }),
    );
    const start = t;
    phases.forEach((phase, i) => {
      if (!(durations[i] > 0)) return;
      const childId = `${id}${name}${phase}`;
      out.push(
        ev('span_start', `sglang_pd_${name}_${phase}`, t, {
          span_id: childId,
          parent_span_id: `${id}${name}`,
        }),
      );
      t += durations[i];
      out.push(
        ev('span_end', `sglang_pd_${name}_${phase}`, t, {
          span_id: childId,
          attrs: { [`pd_${name}_${phase}_duration`]: durations[i] },
        }),
      );
    });
    out.push(
      ev('span_end', `sglang_pd_${name}`, t, {
        span_id: `${id}${name}`,
        attrs: { phase: name, duration_s: t - start },
      }),
    );
  };
  role(
    'prefill',
    ['bootstrap_queue', 'bootstrap', 'alloc_wait', 'forward', 'transfer_queue'],
    prefill,
  );
  role('decode', ['prealloc', 'bootstrap', 'alloc_wait', 'transfer', 'forward'], decode);
  out.push(
    ev('span_end', 'sglang_generate', t + 0.5, {
      span_id: id,
      attrs: { e2e_latency: t + 0.5 - t0 },
    }),
  );
  return out;
}

describe('PD view (ours): [P]/[D] lanes for every dump generation', () => {
  it('fixes the phase order and colours of TRACE_MODEL 4', () => {
    expect(PD_PHASES.map((p) => `${p.role}/${p.phase}`)).toEqual([
      'prefill/bootstrap_queue',
      'prefill/bootstrap',
      'prefill/alloc_wait',
      'prefill/forward',
      'prefill/transfer_queue',
      'decode/prealloc',
      'decode/bootstrap',
      'decode/alloc_wait',
      'decode/transfer',
      'decode/forward',
    ]);
    expect(new Set(PD_PHASES.map((p) => p.colour)).size).toBe(PD_PHASES.length);
  });

  it('child spans: phases in fixed order from the children, zero phases absent, overlapping requests on separate lanes', () => {
    const events = [
      ev('span_start', 'generate_and_rm', 0, { span_id: 'root' }),
      ...currentRequest('a', 0, [0.5, 0, 0.25, 1, 0.125], [0.5, 0.25, 0, 0.25, 2]),
      ...currentRequest('b', 1, [0.5, 0.5, 0, 1, 0], [0.25, 0, 0, 0.5, 1]),
      ...currentRequest('c', 20, [1, 0, 0, 1, 0], [1, 0, 0, 0, 1]),
      ev('span_end', 'generate_and_rm', 30, { span_id: 'root' }),
    ];
    const raw = buildRows([sampleWith(events)]).rows[0];
    const view = buildPdView(raw);
    const byStart = (a: SpanItem, b: SpanItem) => a.start_ts - b.start_ts;
    const prefill = pdSpans(view)
      .filter((s) => s.pd!.role === 'prefill')
      .sort(byStart);
    const decode = pdSpans(view)
      .filter((s) => s.pd!.role === 'decode')
      .sort(byStart);
    expect(prefill.map((s) => s.parent_span_id)).toEqual(['a', 'b', 'c']);
    expect(prefill[0].pd!.phases).toEqual([
      { phase: 'bootstrap_queue', durationSec: 0.5 },
      { phase: 'alloc_wait', durationSec: 0.25 },
      { phase: 'forward', durationSec: 1 },
      { phase: 'transfer_queue', durationSec: 0.125 },
    ]);
    expect(decode[1].pd!.phases.map((p) => p.phase)).toEqual(['prealloc', 'transfer', 'forward']);
    // a and b overlap (two [P] lanes), c reuses the first; [D] lanes below the [P] lanes
    const lanes = (spans: SpanItem[]) => spans.map((s) => s.lane);
    const realLanes = view.items.filter((i) => !(i.type === 'span' && i.pd)).map((i) => i.lane);
    const firstPd = Math.max(...realLanes) + 1;
    expect(lanes(prefill)).toEqual([firstPd, firstPd + 1, firstPd]);
    expect(Math.min(...lanes(decode))).toBe(firstPd + 2);
    expect(view.lane_count).toBe(Math.max(...view.items.map((i) => i.lane)) + 1);
    // phase children became segments; the raw row (slime's view) still has them
    expect(view.items.some((i) => i.name.startsWith('sglang_pd_prefill_'))).toBe(false);
    expect(raw.items.some((i) => i.name === 'sglang_pd_prefill_forward')).toBe(true);
    expect(prefill[0].pd!.parentDurationSec).toBeGreaterThan(0);
  });

  it('flat June keys: slime’s virtual spans get phases in fixed order, packed into one lane per role', () => {
    const flat = (id: string, t: number) => [
      ev('span_start', 'sglang_generate', t, { span_id: id }),
      ev('span_end', 'sglang_generate', t + 2, {
        span_id: id,
        attrs: {
          pd_prefill_forward_duration: 0.5,
          pd_prefill_bootstrap_queue_duration: 0.25,
          pd_decode_forward_duration: 1,
          pd_decode_prealloc_duration: 0.125,
        },
      }),
    ];
    const raw = buildRows([sampleWith([...flat('a', 0), ...flat('b', 3)])]).rows[0];
    // slime: 2 requests x 2 roles = 4 fresh lanes below lane 0
    expect(raw.lane_count).toBe(5);
    const view = buildPdView(raw);
    const spans = pdSpans(view);
    expect(spans.map((s) => [s.pd!.role, s.lane])).toEqual([
      ['prefill', 1],
      ['prefill', 1],
      ['decode', 2],
      ['decode', 2],
    ]);
    expect(spans[0].pd!.phases.map((p) => p.phase)).toEqual(['bootstrap_queue', 'forward']);
    expect(spans[2].pd!.phases.map((p) => p.phase)).toEqual(['prealloc', 'forward']);
    expect(view.lane_count).toBe(3);
  });

  it('older unprefixed keys are prefill phases, beside the prefixed ones', () => {
    const raw = buildRows([
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g' }),
        ev('span_end', 'sglang_generate', 2, {
          span_id: 'g',
          attrs: {
            pd_prefill_bootstrap_queue_duration: 0.1,
            pd_bootstrap_duration: 0.2,
            pd_alloc_waiting_duration: 0.3,
            pd_prefill_forward_duration: 0.4,
            pd_decode_forward_duration: 1,
          },
        }),
      ]),
    ]).rows[0];
    const prefill = pdSpans(buildPdView(raw)).find((s) => s.pd!.role === 'prefill')!;
    expect(prefill.pd!.phases).toEqual([
      { phase: 'bootstrap_queue', durationSec: 0.1 },
      { phase: 'bootstrap', durationSec: 0.2 },
      { phase: 'alloc_wait', durationSec: 0.3 },
      { phase: 'forward', durationSec: 0.4 },
    ]);
  });

  it('perfSeries: per-request values with the row each came from', () => {
    const rows = buildRows([
      sampleWith(currentRequest('a', 0, [0.5, 0, 0, 1, 0], [0.5, 0, 0, 0, 2])),
      sampleWith(currentRequest('b', 0, [0.25, 0, 0, 2, 0], [0.5, 0, 0, 0, 3])),
    ]).rows.map((r) => buildPdView(r));
    const series = new Map(perfSeries(packRows(rows)).map((s) => [s.key, s]));
    // typed arrays (issue 18: series cross threads and HTTP as bytes)
    expect(series.get('e2e latency')!.values).toEqual(Float64Array.from([4.5, 6.25]));
    expect(series.get('e2e latency')!.rowIds).toEqual(Int32Array.from([0, 1]));
    expect(series.get('prefill forward')!.values).toEqual(Float64Array.from([1, 2]));
    expect(series.get('decode forward')!.values).toEqual(Float64Array.from([2, 3]));
  });
});
