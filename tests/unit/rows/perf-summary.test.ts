import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import {
  buildPerfSummary,
  numpySum,
  perfSeries,
  stats,
} from '../../../src-main/core/rows/perf-summary';
import { point, row, span } from './hand-rows';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { ev, sampleWith } from './events';

/** one sample per request, each an sglang_generate span with these end attrs */
const requests = (...attrs: Record<string, PyValue>[]) =>
  attrs.map((a, i) =>
    sampleWith([
      ev('span_start', 'sglang_generate', i, { span_id: `g${i}` }),
      ev('span_end', 'sglang_generate', i + 1, { span_id: `g${i}`, attrs: a }),
    ]),
  );

/** the deterministic series the expected numpy values below were computed from */
const series = (n: number) =>
  Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 997.0 + 1e-3 * i);

describe('perf summary (TRACE_MODEL 5)', () => {
  it("mean is numpy's pairwise sum over n (np.mean), not a running sum", () => {
    // [n, float(np.mean(series(n))), float(np.median(series(n)))] from numpy 2.4
    const cases: [number, number, number][] = [
      [5, 0.6419197592778335, 0.7622778335005015],
      [8, 0.5967798395185557, 0.6419122367101304],
      [37, 0.5074141885114803, 0.5214714142427281],
      [128, 0.5621208625877633, 0.5615180541624875],
      [129, 0.5636695512895276, 0.561555667001003],
      [300, 0.6515060180541625, 0.6416865596790371],
      [1000, 1.0005030090270812, 1.0014669007021064],
    ];
    for (const [n, mean, median] of cases) {
      const s = stats('m', series(n));
      expect(s['m/mean'], `mean of ${n}`).toBe(mean);
      expect(s['m/median'], `median of ${n}`).toBe(median);
    }
    expect(numpySum([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) / 8).toBe(0.45);
  });

  it('median, min and max by selection equal those of a sort: ties, negatives, -0 beside 0, odd and even counts', () => {
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const bySort = (values: number[]) => {
      const sorted = Float64Array.from(values).sort();
      const n = sorted.length;
      return {
        median: n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
        min: sorted[0],
        max: sorted[n - 1],
      };
    };
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(next() * 60);
      const kind = trial % 3;
      const values = Array.from({ length: n }, () =>
        kind === 0
          ? Math.floor(next() * 5) - 2 // many ties
          : kind === 1
            ? [0, -0, 1, -1][Math.floor(next() * 4)] // zeros of both signs
            : next() * 1000 - 500,
      );
      const s = stats('m', values);
      const want = bySort(values);
      expect(Object.is(s['m/median'], want.median), `median of ${values}`).toBe(true);
      expect(Object.is(s['m/min'], want.min), `min of ${values}`).toBe(true);
      expect(Object.is(s['m/max'], want.max), `max of ${values}`).toBe(true);
    }
  });

  it("np.mean over values of six magnitudes: numpy's blocks of 128 and its halves cut at a multiple of 8", () => {
    // Park-Miller draws: a value in [0, 1) times 10^k, k in 0..5; the same series in Python
    // gave float(np.mean(...)) below (numpy 2.4.6)
    const wide = (seed: number, n: number) => {
      let s = seed;
      const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
      return Array.from({ length: n }, () => next() * 10 ** Math.floor(next() * 6));
    };
    expect(stats('m', wide(4, 128))['m/mean']).toBe(10094.192054476292);
    expect(stats('m', wide(1, 300))['m/mean']).toBe(8717.875809338466);
  });

  it('finite numbers only, booleans excluded, zeros and negatives included; only sglang_generate span ends', () => {
    const samples = [
      ...requests(
        { e2e_latency: 3 },
        { e2e_latency: 1 },
        { e2e_latency: -2 },
        { e2e_latency: 0 },
        { e2e_latency: true },
        { e2e_latency: NaN },
        { e2e_latency: Infinity },
        { e2e_latency: '5' },
      ),
      sampleWith([ev('span_end', 'sglang_generate_stream', 1, { attrs: { e2e_latency: 100 } })]),
      sampleWith([ev('event', 'sglang_generate', 1, { attrs: { e2e_latency: 100 } })]),
    ];
    const perf = buildPerfSummary(samples);
    // np.mean / np.median of [3, 1, -2, 0]
    expect(perf['perf/request/e2e_latency/mean']).toBe(0.5);
    expect(perf['perf/request/e2e_latency/median']).toBe(0.5);
    expect(perf['perf/request/e2e_latency/max']).toBe(3);
    expect(perf['perf/request/e2e_latency/min']).toBe(-2);
    expect(perf['perf/request/queue_time/mean']).toBeUndefined();
    // ours: every sglang_generate span end is a request
    expect(perf['perf/request/count']).toBe(8);
    expect(perf['perf/request/profiled_count']).toBe(0);
  });

  it('a bigint value counts as its number; events that are no dicts are passed over', () => {
    const samples = [
      ...requests({ e2e_latency: 7n }),
      sampleWith([
        null,
        'text',
        ev('span_end', 'sglang_generate', 1, { attrs: { e2e_latency: 3 } }),
      ]),
    ];
    const perf = buildPerfSummary(samples);
    expect(perf['perf/request/e2e_latency/mean']).toBe(5);
    expect(perf['perf/request/count']).toBe(2);
    // a request end without a span id has no PD marker pointing at it
    expect(perf['perf/request/profiled_count']).toBe(0);
  });

  it('(ours) PD children count at their span end only, and only with a duration', () => {
    const perf = buildPerfSummary([
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g' }),
        ev('span_start', 'sglang_pd_decode_forward', 0, {
          span_id: 'f',
          attrs: { duration_s: 9 }, // a start: not counted
        }),
        // a phase span right under the request is no PD marker (only the role spans are)
        ev('span_end', 'sglang_pd_decode_forward', 1, {
          span_id: 'f',
          parent_span_id: 'g',
          attrs: { duration_s: 1 },
        }),
        ev('span_end', 'my_sglang_pd_decode_forward', 1, { attrs: { duration_s: 9 } }),
        ev('event', 'my_sglang_pd_summary', 1, { parent_span_id: 'g' }),
        ev('event', 'sglang_pd_decode_transfer', 1, { attrs: { duration_s: 9 } }), // no span end
        ev('span_start', 'sglang_pd_decode_prealloc', 1, { span_id: 'a' }),
        ev('span_end', 'sglang_pd_decode_prealloc', 2, { span_id: 'a' }), // no duration
        ev('span_end', 'sglang_generate', 2, { span_id: 'g' }),
      ]),
    ]);
    expect(perf).toEqual({
      'perf/decode/forward_duration/mean': 1,
      'perf/decode/forward_duration/median': 1,
      'perf/decode/forward_duration/max': 1,
      'perf/decode/forward_duration/min': 1,
      'perf/request/count': 1,
      'perf/request/profiled_count': 0,
    });
  });

  it('(ours) from sglang_pd_summary only its pd_ keys that are no durations', () => {
    const perf = buildPerfSummary([
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g' }),
        ev('event', 'sglang_pd_summary', 1, {
          parent_span_id: 'g',
          attrs: {
            pd_prefill_retry_count: 2,
            pd_prefill_forward_duration: 9, // a duration: from the phase spans, not here
            e2e_latency: 9, // not a PD key
            pd_transfer_total_mb: 'x', // not a number
          },
        }),
        ev('event', 'other_event', 1, { attrs: { pd_transfer_speed_gb_s: 9 } }), // not the summary
        ev('span_end', 'sglang_generate', 2, { span_id: 'g' }),
      ]),
    ]);
    expect(perf).toEqual({
      'perf/prefill/retry_count/mean': 2,
      'perf/prefill/retry_count/median': 2,
      'perf/prefill/retry_count/max': 2,
      'perf/prefill/retry_count/min': 2,
      'perf/request/count': 1,
      'perf/request/profiled_count': 1, // the summary marks the request as profiled
    });
  });

  it('a PD marker counts its request as profiled once, before or after the request ends', () => {
    // slime's rule: a request is profiled if any event of its sample is a PD marker naming it
    // as parent, wherever that event lies in the list
    const marker = (ts: number) =>
      ev('span_start', 'sglang_pd_decode', ts, { span_id: `d${ts}`, parent_span_id: 'g' });
    const sample = (...middle: Record<string, PyValue>[]) =>
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g' }),
        ...middle,
        ev('span_end', 'sglang_generate', 2, { span_id: 'g', attrs: { e2e_latency: 2 } }),
      ]);
    const after = sampleWith([
      ev('span_start', 'sglang_generate', 0, { span_id: 'h' }),
      ev('span_end', 'sglang_generate', 2, { span_id: 'h', attrs: { e2e_latency: 2 } }),
      ev('event', 'sglang_pd_summary', 3, { parent_span_id: 'h' }),
    ]);
    const perf = buildPerfSummary([sample(marker(1)), sample(marker(1), marker(1.5)), after]);
    expect(perf['perf/request/count']).toBe(3);
    expect(perf['perf/request/profiled_count']).toBe(3);
    // a marker naming another span, and a request without an id, count nothing
    const none = buildPerfSummary([
      sampleWith([
        ev('span_end', 'sglang_generate', 2, { attrs: { e2e_latency: 2 } }),
        ev('event', 'sglang_pd_summary', 3, { parent_span_id: 'elsewhere' }),
      ]),
    ]);
    expect(none['perf/request/profiled_count']).toBe(0);
  });

  it('no requests: no keys at all', () => {
    expect(buildPerfSummary([sampleWith([ev('event', 'x', 1)]), { index: 0 }])).toEqual({});
  });

  it('legacy flat keys use slime’s names; (ours) PD children only fill names slime left empty', () => {
    const legacy = buildPerfSummary(
      requests({ pd_prefill_forward_duration: 0.5, pd_transfer_speed_gb_s: 10, e2e_latency: 2 }),
    );
    expect(legacy['perf/prefill/forward_duration/mean']).toBe(0.5);
    expect(legacy['perf/prefill/transfer_speed_gb_s/max']).toBe(10);
    expect(legacy['perf/request/profiled_count']).toBe(1);

    const current = buildPerfSummary([
      sampleWith([
        ev('span_start', 'sglang_generate', 0, { span_id: 'g' }),
        ev('span_start', 'sglang_pd_prefill', 0, { span_id: 'p', parent_span_id: 'g' }),
        ev('span_start', 'sglang_pd_prefill_forward', 0, { span_id: 'pf', parent_span_id: 'p' }),
        ev('span_end', 'sglang_pd_prefill_forward', 0.25, {
          span_id: 'pf',
          attrs: { pd_prefill_forward_duration: 0.25 },
        }),
        ev('span_end', 'sglang_pd_prefill', 0.25, {
          span_id: 'p',
          attrs: { phase: 'prefill', duration_s: 0.25 },
        }),
        ev('event', 'sglang_pd_summary', 1, {
          parent_span_id: 'g',
          attrs: { pd_transfer_speed_gb_s: 20, pd_prefill_retry_count: 1 },
        }),
        ev('span_end', 'sglang_generate', 1, { span_id: 'g', attrs: { e2e_latency: 1 } }),
      ]),
    ]);
    expect(current['perf/prefill/forward_duration/mean']).toBe(0.25);
    expect(current['perf/prefill/transfer_speed_gb_s/mean']).toBe(20);
    expect(current['perf/prefill/retry_count/max']).toBe(1);
    expect(current['perf/request/profiled_count']).toBe(1);
  });

  it('(ours) the older unprefixed keys count as prefill bootstrap / alloc_wait when slime has no such key', () => {
    const older = buildPerfSummary(
      requests({ pd_bootstrap_duration: 0.5, pd_alloc_waiting_duration: 0.25 }),
    );
    expect(older['perf/prefill/bootstrap_duration/mean']).toBe(0.5);
    expect(older['perf/prefill/alloc_wait_duration/mean']).toBe(0.25);
    expect(older['perf/request/profiled_count']).toBe(1);
    const both = buildPerfSummary(
      requests({ pd_prefill_bootstrap_duration: 2, pd_bootstrap_duration: 0.5 }),
    );
    expect(both['perf/prefill/bootstrap_duration/mean']).toBe(2);
  });
});

describe('perfSeries', () => {
  it('finite numbers from closed sglang_generate spans and PD phases, each with its row and span', () => {
    const generate = (start: number, endAttrs: Record<string, number | string>) =>
      span('sglang_generate', start, start + 1, { endAttrs });
    const decode = span('sglang_pd_decode', 0, 1);
    decode.pd = {
      role: 'decode',
      phases: [{ phase: 'forward', durationSec: 0.5 }],
      parentDurationSec: 1,
    };
    const openDecode = span('sglang_pd_decode', 2, 3, { endTs: null });
    openDecode.pd = {
      role: 'decode',
      phases: [{ phase: 'forward', durationSec: 9 }],
      parentDurationSec: 1,
    };
    const rows = [
      row(3, [
        point('sglang_generate', 0),
        generate(0, { e2e_latency: 2, queue_time: 0.5, decode_throughput: 100 }),
        generate(1, { e2e_latency: NaN, queue_time: '1' }), // neither counts
        span('sglang_generate', 2, 3, { endTs: null, endAttrs: { e2e_latency: 9 } }), // open
        span('other', 3, 4, { endAttrs: { e2e_latency: 9 } }), // not a request
        decode,
        openDecode,
      ]),
      row(5, [generate(5, { e2e_latency: 4 })]),
    ];
    const series = perfSeries(packRows(rows)).map((s) => ({
      ...s,
      values: [...s.values],
      rowIds: [...s.rowIds],
    }));
    expect(series).toEqual([
      {
        key: 'e2e latency',
        unit: 's',
        values: [2, 4],
        rowIds: [3, 5],
        spanNames: ['sglang_generate'],
      },
      { key: 'queue time', unit: 's', values: [0.5], rowIds: [3], spanNames: ['sglang_generate'] },
      {
        key: 'decode throughput',
        unit: 'tok/s',
        values: [100],
        rowIds: [3],
        spanNames: ['sglang_generate'],
      },
      {
        key: 'decode forward',
        unit: 's',
        values: [0.5],
        rowIds: [3],
        spanNames: ['sglang_pd_decode'],
      },
    ]);
  });
});
