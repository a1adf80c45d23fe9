import { resolve } from 'node:path';
import { scaleLinear } from '@visx/scale';
import { describe, expect, it } from 'vitest';
import type { Row, SpanItem } from '../../../src-main/core/model/row';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import {
  PERF_BINS,
  buildPerfDigest,
  buildSharedBins,
  perfBinRows,
  perfDigest,
  perfValues,
  warmPerfDigest,
} from '../../../src-main/core/open/perf-digest';
import { buildRunningDigest, summariseRunning } from '../../../src-main/core/open/running-digest';
import { curveOf } from '../../support/running-curve';
import { binEdges, binValues, sharedBins } from '../../../src-main/core/open/value-bins';
import { valueStats } from '../../../src-main/core/open/value-stats';
import { SLIME, fixtureSource, readJson } from '../../support/fixtures';

// The perf view's digest (core/open/perf-digest.ts): what getPerf answers instead of every value.

describe('bins', () => {
  it('cut a hand-computed distribution on round edges and count rows per bin', () => {
    // lo 0.1, hi 0.4: d3's tick step for 20 bins is 0.02 (0.015 rounded up to 2e-2), so the
    // edges are 0.10, 0.12, ..., 0.40: 15 bins; 0.35 sits in [0.34, 0.36), 0.4 in the last bin
    const h = binValues([0.1, 0.12, 0.35, 0.4, 0.4, Number.NaN], [0, 0, 1, 2, 3, 4], 20);
    expect(h.bins).toHaveLength(15);
    expect(h.bins[0].x0).toBe(0.1);
    expect(h.bins[14].x1).toBe(0.4);
    expect(h.bins[12].x0).toBeCloseTo(0.34, 12);
    const nonEmpty = h.bins.flatMap((b, i) => (b.count > 0 ? [[i, b.count, b.samples]] : []));
    expect(nonEmpty).toEqual([
      [0, 1, 1],
      [1, 1, 1],
      [12, 1, 1],
      [14, 2, 2],
    ]);
    expect(h.skipped).toBe(1);
    expect(h.maxCount).toBe(2);
    // rows 0 and 0 again: one sample in a bin holding two of its values
    expect(binValues([1, 1.01], [7, 7], 20).bins.find((b) => b.count === 2)).toBeUndefined();
    expect(binValues([1, 1], [7, 7], 20).bins.filter((b) => b.count > 0)).toEqual([
      { x0: expect.any(Number), x1: expect.any(Number), count: 2, samples: 1 },
    ]);
  });

  it('are the edges the renderer drew with @visx/scale before the binning moved to core', () => {
    // the old renderer code: scaleLinear({ domain }).nice(n), then ticks(n), widened to the domain
    const visxEdges = (lo: number, hi: number, n: number) => {
      const scale = scaleLinear<number>({ domain: [lo, hi] }).nice(n);
      const edges = scale.ticks(n);
      const [d0, d1] = scale.domain();
      if (edges.length < 2 || edges[0] > d0) edges.unshift(d0);
      if (edges[edges.length - 1] < d1) edges.push(d1);
      return edges;
    };
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const scale = 10 ** Math.floor(random() * 12 - 6);
      const lo = (random() - 0.3) * scale;
      const hi = lo + random() * scale * (random() < 0.1 ? 1e-3 : 1);
      if (lo === hi) continue;
      expect(binEdges([lo, hi], PERF_BINS)).toEqual(visxEdges(lo, hi, PERF_BINS));
    }
  });

  it('share one equal-width range between two files, counting every finite value', () => {
    const h = sharedBins([0, 1, 2, 3], [3, 4, 5, 6, 10], 5);
    expect(h.edges).toEqual([0, 2, 4, 6, 8, 10]);
    expect(h.a).toEqual([2, 2, 0, 0, 0]);
    // 10 falls in the last bin
    expect(h.b).toEqual([0, 1, 2, 1, 1]);
    const shared = buildSharedBins(
      new Float64Array([0, 1, 2, 3]),
      new Float64Array([3, 4, 5, 6, 10]),
    );
    expect(shared).toMatchObject({ countA: 4, countB: 5, meanA: 1.5, meanB: 5.6 });
    expect(shared.edges).toHaveLength(25);
    expect(buildSharedBins([], [])).toMatchObject({ edges: [], a: [], b: [], countA: 0 });
  });
});

describe('stats', () => {
  it('are numpy’s: median of the middle two, p90 by linear interpolation', () => {
    // sorted 1 2 3 4 10: p90 at rank 3.6 = 4 + 0.6 * (10 - 4) = 7.6
    const stats = valueStats([10, 3, 1, Number.NaN, 4, 2])!;
    expect(stats).toMatchObject({ count: 5, min: 1, max: 10, mean: 4, median: 3, total: 20 });
    expect(stats.p90).toBeCloseTo(7.6, 12);
    expect(valueStats([4, 1, 3, 2])!.median).toBe(2.5);
    expect(valueStats([Number.NaN])).toBeNull();
  });
});

describe('the running curve', () => {
  it('keeps each column’s first, lowest, highest and last step (hand-computed)', () => {
    // 10 steps over 9 s in 2 columns: t 0-4 in the first, 5-9 in the second
    const running = curveOf(
      [1, 3, 2, 5, 4, 2, 0, 1, 3, 0].map((count, t) => ({ tSec: t, running: count })),
    );
    const digest = buildRunningDigest(running, 2);
    // column 1: first t0 (also its lowest), highest t3, last t4; column 2: first t5, lowest t6,
    // highest t8, last t9
    expect(Array.from(digest.tSec)).toEqual([0, 3, 4, 5, 6, 8, 9]);
    expect(Array.from(digest.running)).toEqual([1, 5, 4, 2, 0, 3, 0]);
    expect(digest.steps).toBe(10);
    expect(digest.summary).toEqual(summariseRunning(running));
  });

  it('reduces 200k steps to chart resolution and summarises them all', () => {
    const points = Array.from({ length: 200_000 }, (_, i) => ({
      tSec: i / 100,
      running: i === 123_457 ? 5000 : (i * 7919) % 1000,
    }));
    const running = curveOf(points);
    const digest = buildRunningDigest(running);
    expect(digest.tSec.length).toBeLessThanOrEqual(4 * 4096);
    expect(digest.tSec.length).toBeGreaterThan(4096);
    // the summary is the full curve's: the one-step spike at 1234.57 s is the peak
    expect(digest.summary).toEqual(summariseRunning(running));
    expect(digest.summary).toMatchObject({ peak: 5000, peakAtSec: 1234.57 });
    expect(Math.max(...digest.running)).toBe(5000);
    // every kept point is a step of the full curve, in time order, first and last kept
    const byTime = new Map(points.map((p) => [p.tSec, p.running]));
    digest.tSec.forEach((t, i) => expect(byTime.get(t)).toBe(digest.running[i]));
    expect(digest.tSec.every((t, i) => i === 0 || t > digest.tSec[i - 1])).toBe(true);
    expect([digest.tSec[0], digest.tSec.at(-1)]).toEqual([0, 1999.99]);
  });
});

describe('the digest of rollout_small.pt', () => {
  const small = resolve(SLIME, 'rollout_small.pt');
  const opened = openTraceFile([fixtureSource(small)]);
  const view = opened.perf;
  const digest = buildPerfDigest(view);
  const expectedRows = readJson<{ rows: Row[] }>(`${small}.expected.json`).rows;
  const slimePerf = readJson<Record<string, number>>(`${small}.perf.expected.json`);

  it('gives each series its count, slime’s stats and the bins of all its values', () => {
    // one e2e latency per sglang_generate span with the attribute (the fixture's expected rows)
    const requests = expectedRows.flatMap((r) =>
      r.items.filter(
        (i): i is SpanItem =>
          i.type === 'span' &&
          i.name === 'sglang_generate' &&
          typeof i.attrs.end_attrs.e2e_latency === 'number',
      ),
    ).length;
    const e2e = digest.series.find((s) => s.key === 'e2e latency')!;
    expect(e2e.valueCount).toBe(requests);
    expect(e2e.stats!.count).toBe(requests);
    // slime's own perf/... output for this fixture (rollout_small.pt.perf.expected.json)
    expect(e2e.stats!.mean).toBeCloseTo(slimePerf['perf/request/e2e_latency/mean'], 9);
    expect(e2e.stats!.median).toBeCloseTo(slimePerf['perf/request/e2e_latency/median'], 9);
    expect(e2e.stats!.max).toBe(slimePerf['perf/request/e2e_latency/max']);
    expect(e2e.stats!.min).toBe(slimePerf['perf/request/e2e_latency/min']);
    expect(e2e.bins.reduce((n, b) => n + b.count, 0)).toBe(requests);
    expect(digest.series.map((s) => s.key)).toEqual(view.series.map((s) => s.key));
    for (const s of digest.series) {
      const full = view.series.find((v) => v.key === s.key)!;
      expect(s).toMatchObject({ unit: full.unit, spanNames: full.spanNames });
      expect(s.bins).toEqual(binValues(full.values, full.rowIds, PERF_BINS).bins);
    }
  });

  it('answers a bin’s rows: the rows whose values fall in it, and null for no such series', () => {
    const e2e = view.series.find((s) => s.key === 'e2e latency')!;
    const bins = digest.series.find((s) => s.key === 'e2e latency')!.bins;
    let total = 0;
    bins.forEach((bin, b) => {
      const last = b === bins.length - 1;
      const expected = new Set<number>();
      e2e.values.forEach((v, i) => {
        if (v >= bin.x0 && (v < bin.x1 || last)) expected.add(e2e.rowIds[i]);
      });
      const rows = perfBinRows(view, 'e2e latency', b)!;
      expect(rows.sort((x, y) => x - y)).toEqual([...expected].sort((x, y) => x - y));
      expect(rows).toHaveLength(bin.samples);
      total += rows.length;
    });
    expect(total).toBeGreaterThan(0);
    expect(perfBinRows(view, 'e2e latency', bins.length)).toEqual([]);
    expect(perfBinRows(view, 'no such series', 0)).toBeNull();
  });

  it('keeps durations per span name in the view’s order, with their counts and totals', () => {
    expect(digest.durations.map((d) => d.name)).toEqual(view.durations.map((d) => d.name));
    for (const d of digest.durations) {
      const values = view.durations.find((v) => v.name === d.name)!.valuesSec;
      expect(d.valueCount).toBe(values.length);
      expect(d.stats!.total).toBeCloseTo(
        values.reduce((s, v) => s + v, 0),
        9,
      );
      expect(d.bins.every((b) => b.samples === 0)).toBe(true);
    }
    // closed spans per name in the fixture's expected rows (slime's timeline cache)
    const closed = new Map<string, number>();
    for (const row of expectedRows)
      for (const item of row.items)
        if (item.type === 'span' && item.end_ts !== null)
          closed.set(item.name, (closed.get(item.name) ?? 0) + 1);
    // (PD phase spans are drawn as [P]/[D] lanes, not rows' items: their names have no durations)
    for (const d of digest.durations) expect(d.valueCount).toBe(closed.get(d.name));
    expect(digest.durations.map((d) => d.name).sort()).toEqual(
      [...closed.keys()].filter((name) => !/^sglang_pd_(prefill|decode)_/.test(name)).sort(),
    );
    // 4 groups x 4 samples (tests/fixtures/slime/README.md), one group span each
    expect(closed.get('generate_and_rm_group')).toBe(16);
    expect(perfValues(view, { kind: 'duration', name: 'generate_and_rm_group' })).toHaveLength(16);
    expect(perfValues(view, { kind: 'series', name: 'nope' })).toBeNull();
  });

  it('keeps a short running curve whole and leaves the groups and per-row lists out', () => {
    expect(Array.from(digest.running.tSec)).toEqual(Array.from(view.running.tSec));
    expect(Array.from(digest.running.running)).toEqual(Array.from(view.running.running));
    expect(digest.running.summary.peak).toBe(expectedRows.length);
    expect(digest.rollout.groupCount).toBe(4);
    expect(digest.rollout).not.toHaveProperty('groups');
    expect(digest.rollout).not.toHaveProperty('responseLengths');
    expect(digest.rollout.own).toEqual(view.rollout.own);
    expect(digest.rollout.stragglers).toEqual(view.rollout.stragglers);
  });
});

describe('the digest made a step at a time (the worker’s warm-up)', () => {
  const small = resolve(SLIME, 'rollout_small.pt');

  it('is the digest made at once, kept for the call that asks it, in several steps', () => {
    const whole = buildPerfDigest(openTraceFile([fixtureSource(small)]).perf);
    const view = openTraceFile([fixtureSource(small)]).perf;
    const steps = warmPerfDigest(view);
    let taken = 0;
    while (!steps.next().done) taken++;
    // each figure made on first read, each series and the running curve: a step each
    expect(taken).toBeGreaterThan(5 + view.series.length);
    expect(perfDigest(view)).toBe(perfDigest(view));
    // as the call answers it (structured clone: what crosses to main), field order included
    expect(JSON.stringify(structuredClone(perfDigest(view)))).toBe(
      JSON.stringify(structuredClone(whole)),
    );
  });

  it('asked halfway, takes the steps left at once; the warm-up then has none', () => {
    const whole = buildPerfDigest(openTraceFile([fixtureSource(small)]).perf);
    const view = openTraceFile([fixtureSource(small)]).perf;
    const steps = warmPerfDigest(view);
    steps.next();
    steps.next();
    expect(structuredClone(perfDigest(view))).toEqual(structuredClone(whole));
    expect(steps.next().done).toBe(true);
  });
});

describe('stats by selection', () => {
  it('equal the sorted-array quantiles on random, tied and ordered values', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sortedQuantile = (sorted: number[], q: number) => {
      const pos = (sorted.length - 1) * q;
      const lo = Math.floor(pos);
      const hi = Math.ceil(pos);
      return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    };
    const cases = [
      Array.from({ length: 1001 }, () => random() * 100),
      Array.from({ length: 1000 }, () => Math.floor(random() * 5)),
      Array.from({ length: 500 }, (_, i) => i),
      Array.from({ length: 500 }, (_, i) => 500 - i),
      [2],
      [3, 1],
    ];
    for (const values of cases) {
      const sorted = [...values].sort((a, b) => a - b);
      const stats = valueStats(Float64Array.from(values))!;
      expect(stats.median).toBe(sortedQuantile(sorted, 0.5));
      expect(stats.p90).toBe(sortedQuantile(sorted, 0.9));
      expect([stats.min, stats.max]).toEqual([sorted[0], sorted.at(-1)]);
    }
  });
});
