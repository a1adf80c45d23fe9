import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row, SpanItem } from '../../../src-main/core/model/row';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { buildRunningCurve } from '../../../src-main/core/open/build-perf-view';
import { row } from '../store/hand-rows';
import {
  binEdges,
  binIndexOf,
  binOfEach,
  binValues,
  rowsInBin,
  rowsOfBin,
} from '../../../src-main/core/open/value-bins';
import { summariseRunning } from '../../../src-main/core/open/running-digest';
import { valueStats } from '../../../src-main/core/open/value-stats';
import { formatPerfValue, perfTableRows, perfUnit } from '../../../src-renderer/perf/perf-table';
import { countAt, runningPath } from '../../../src-renderer/perf/running-summary';
import { curveOf, pointsOf } from '../../support/running-curve';
import { formatAxisValue, formatValue } from '../../../src-renderer/perf/value-format';
import { SLIME, fixtureSource, readJson } from '../../support/fixtures';

const small = resolve(SLIME, 'rollout_small.pt');
const opened = openTraceFile([fixtureSource(small)]);
const expectedRows = readJson<{ rows: Row[] }>(`${small}.expected.json`).rows;
const slimePerf = readJson<Record<string, number>>(`${small}.perf.expected.json`);

describe('perf table', () => {
  it('puts each of slime’s perf keys in its metric row and stat column', () => {
    const rows = perfTableRows(slimePerf);
    for (const [key, value] of Object.entries(slimePerf)) {
      const cut = key.lastIndexOf('/');
      const row = rows.find((r) => r.metric === key.slice(0, cut))!;
      expect(row.stats[key.slice(cut + 1) as 'mean']).toBe(value);
    }
    expect(rows.length).toBe(Object.keys(slimePerf).length / 4);
    // request metrics first, as slime's logs group them
    expect(rows[0].group).toBe('request');
  });

  it('keeps count keys (ours) as single values', () => {
    const rows = perfTableRows(opened.perf.perf);
    const count = rows.find((r) => r.metric === 'perf/request/count')!;
    // one request per closed sglang_generate span of the fixture
    expect(count.value).toBe(opened.perf.perf['perf/request/count']);
    expect(count.value).toBeGreaterThan(0);
    for (const key of Object.keys(slimePerf))
      expect(opened.perf.perf[key]).toBeCloseTo(slimePerf[key], 9);
    expect(perfUnit('perf/request/e2e_latency')).toBe('s');
    expect(perfUnit('perf/decode/throughput')).toBe('tok/s');
    expect(perfUnit('perf/prefill/transfer_speed_gb_s')).toBe('GB/s');
    expect(formatPerfValue(7.53203677348459)).toBe('7.5320');
    expect(formatPerfValue(16)).toBe('16');
    expect(formatPerfValue(0.0002415003053120737)).toBe('2.415e-4');
  });
});

describe('histogram bins over the real e2e latency series', () => {
  const series = opened.perf.series.find((s) => s.key === 'e2e latency')!;
  const requests = expectedRows.flatMap((r) =>
    r.items
      .filter(
        (i): i is SpanItem =>
          i.type === 'span' &&
          i.name === 'sglang_generate' &&
          typeof i.attrs.end_attrs.e2e_latency === 'number',
      )
      .map((i) => ({ rowId: r.row_id, value: i.attrs.end_attrs.e2e_latency as number })),
  );

  it('counts every request once, within round edges covering min and max', () => {
    expect(series.values.length).toBe(requests.length);
    const h = binValues(series.values, series.rowIds, 20);
    expect(h.bins.reduce((n, b) => n + b.count, 0)).toBe(requests.length);
    expect(h.bins[0].x0).toBeLessThanOrEqual(slimePerf['perf/request/e2e_latency/min']);
    expect(h.bins[h.bins.length - 1].x1).toBeGreaterThanOrEqual(
      slimePerf['perf/request/e2e_latency/max'],
    );
    const widths = h.bins.map((b) => b.x1 - b.x0);
    for (const w of widths) expect(w).toBeCloseTo(widths[0], 9);
    expect(h.maxCount).toBe(Math.max(...h.bins.map((b) => b.count)));
  });

  it('gives each bin the rows of the requests that fall in it', () => {
    const h = binValues(series.values, series.rowIds, 20);
    h.bins.forEach((bin, b) => {
      const inBin = requests.filter(
        (r) => r.value >= bin.x0 && (r.value < bin.x1 || bin === h.bins[h.bins.length - 1]),
      );
      const rows = [...new Set(inBin.map((r) => r.rowId))].sort((x, y) => x - y);
      expect(bin.count).toBe(inBin.length);
      expect(bin.samples).toBe(rows.length);
      expect(rowsInBin(series.values, series.rowIds, b, 20).sort((x, y) => x - y)).toEqual(rows);
    });
  });

  it('gives a bin’s rows in first-seen order as a Set of them did, whatever the row ids', () => {
    // the bin click as it was: each value placed again, rows kept in a Set
    const bySet = (values: Float64Array, rowIds: Int32Array, b: number) => {
      const edges = binEdges(values, 20);
      const rows = new Set<number>();
      values.forEach((v, i) => {
        if (Number.isFinite(v) && binIndexOf(v, edges) === b) rows.add(rowIds[i]);
      });
      return [...rows];
    };
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const n = 20_000;
    const values = Float64Array.from({ length: n }, (_, i) =>
      i % 53 === 0 ? NaN : i % 71 === 0 ? Infinity : rand() ** 3 * 40,
    );
    const ids: Record<string, Int32Array> = {
      'a store’s, a few values each': Int32Array.from({ length: n }, () =>
        Math.floor(rand() * 5000),
      ),
      'far apart': Int32Array.from({ length: n }, () => Math.floor(rand() * 2 ** 30)),
      'some negative': Int32Array.from({ length: n }, () => Math.floor(rand() * 300) - 100),
    };
    for (const [name, rowIds] of Object.entries(ids)) {
      const index = binOfEach(values, 20);
      for (let b = -1; b <= 21; b++) {
        const expected = bySet(values, rowIds, b);
        expect(rowsOfBin(index, rowIds, b), `${name}, bin ${b}`).toEqual(expected);
        expect(rowsInBin(values, rowIds, b, 20), `${name}, bin ${b}`).toEqual(expected);
      }
      expect(rowsOfBin(index, rowIds, 3).length).toBeGreaterThan(0);
    }
  });

  it('survives one value, no values and non-finite values, and 200k values without spreads', () => {
    expect(binValues([3, 3, 3], null).bins.filter((b) => b.count > 0)).toHaveLength(1);
    expect(binValues([], null)).toEqual({ bins: [], skipped: 0, maxCount: 0 });
    expect(binValues([Number.NaN, Infinity, 1, 2], null).skipped).toBe(2);
    const big = Float64Array.from({ length: 200_000 }, (_, i) => (i % 1000) / 10);
    const h = binValues(big, null, 10);
    expect(h.bins.reduce((n, b) => n + b.count, 0)).toBe(200_000);
  });
});

describe('samples running over time', () => {
  it('steps at each start and end; ends go first at the same instant; a resumed row runs from its resume', () => {
    const rows = [
      row({ row_id: 0, start: 100, end: 110 }),
      row({ row_id: 1, start: 105, end: 105 }), // zero length: never counted as running
      row({ row_id: 2, start: 110, end: 120 }), // starts as row 0 ends
      row({ row_id: 3, start: 90, end: 115 }), // resumed at 108 in this rollout
    ];
    const startOf = (r: Row) => (r.row_id === 3 ? 108 : r.start);
    // by hand, from 100: +1 at 0; -1 +1 at 5; +1 at 8; -1 +1 at 10; -1 at 15; -1 at 20
    expect(pointsOf(buildRunningCurve(rows, startOf))).toEqual([
      { tSec: 0, running: 1 },
      { tSec: 5, running: 1 },
      { tSec: 8, running: 2 },
      { tSec: 10, running: 2 },
      { tSec: 15, running: 1 },
      { tSec: 20, running: 0 },
    ]);
    // by their own starts: row 3 from 90
    expect(pointsOf(buildRunningCurve(rows)).slice(0, 2)).toEqual([
      { tSec: 0, running: 1 },
      { tSec: 10, running: 2 },
    ]);
    expect(pointsOf(buildRunningCurve([]))).toEqual([]);
  });

  it('finds the peak and the long tail of rollout_small', () => {
    const running = opened.perf.running;
    const s = summariseRunning(running);
    expect(s.peak).toBe(expectedRows.length);
    const lastEnd =
      Math.max(...expectedRows.map((r) => r.end)) - Math.min(...expectedRows.map((r) => r.start));
    expect(s.endSec).toBeCloseTo(lastEnd, 5);
    // stragglers: after the tail starts fewer than half the samples are still running
    expect(s.tailStartSec).not.toBeNull();
    const stillRunning = expectedRows.filter(
      (r) => r.end - expectedRows[0].start > s.tailStartSec! + 1e-6,
    ).length;
    expect(stillRunning).toBe(s.tailMax);
    expect(s.tailMax * 2).toBeLessThan(s.peak);
  });

  it('reads the running count under the pointer: the last step at or before it, 0 before the first', () => {
    const curve = buildRunningCurve([
      row({ row_id: 0, start: 100, end: 110 }),
      row({ row_id: 1, start: 105, end: 120 }),
    ]);
    expect(countAt(curve, -1)).toBe(0);
    expect(countAt(curve, 0)).toBe(1);
    expect(countAt(curve, 4.9)).toBe(1);
    expect(countAt(curve, 5)).toBe(2);
    expect(countAt(curve, 10)).toBe(1);
    expect(countAt(curve, 19.9)).toBe(1);
    expect(countAt(curve, 20)).toBe(0);
    expect(countAt(curve, 1e9)).toBe(0);
  });

  it('draws a step path that reaches every level and stays bounded for huge series', () => {
    const running = opened.perf.running;
    const d = runningPath(
      running,
      (t) => t * 10,
      (c) => 100 - c,
    );
    for (const count of running.running) expect(d).toContain(`V${(100 - count).toFixed(1)}`);
    const huge = Array.from({ length: 200_000 }, (_, i) => ({ tSec: i / 1000, running: i % 7 }));
    const path = runningPath(
      curveOf(huge),
      (t) => t * 3,
      (c) => c,
    );
    expect(path.split('H').length - 1).toBeLessThanOrEqual(601);
    expect(path).toContain('V6.0');
  });
});

describe('series statistics', () => {
  it('match slime’s perf summary over the same e2e latency and queue time series', () => {
    for (const [key, metric] of [
      ['e2e latency', 'perf/request/e2e_latency'],
      ['queue time', 'perf/request/queue_time'],
      ['decode throughput', 'perf/decode/throughput'],
    ] as const) {
      const series = opened.perf.series.find((s) => s.key === key)!;
      const stats = valueStats(series.values)!;
      expect(stats.mean).toBeCloseTo(slimePerf[`${metric}/mean`], 9);
      expect(stats.median).toBeCloseTo(slimePerf[`${metric}/median`], 9);
      expect(stats.max).toBe(slimePerf[`${metric}/max`]);
      expect(stats.min).toBe(slimePerf[`${metric}/min`]);
      expect(stats.p90).toBeGreaterThanOrEqual(stats.median);
      expect(stats.p90).toBeLessThanOrEqual(stats.max);
    }
    expect(valueStats([])).toBeNull();
    expect(valueStats([1, 2, 3, 4])!.median).toBe(2.5);
  });

  it('formats values by unit', () => {
    expect(formatValue(0.0123, 's')).toBe('12.30 ms');
    expect(formatValue(71.81300669249059, 'tok/s')).toBe('71.8 tok/s');
    expect(formatValue(12345.6, '')).toBe('12346');
    expect(formatAxisValue(2500, 'tok/s')).toBe('2.5k');
    expect(formatAxisValue(1.5, 's')).toBe('1.5s');
    expect(formatAxisValue(0.05, 's')).toBe('50ms');
    expect(formatAxisValue(0, 's')).toBe('0');
    // minutes and hours at round ticks: whole units, then the rest in the next unit down
    expect(formatAxisValue(60, 's')).toBe('1m');
    expect(formatAxisValue(70, 's')).toBe('1m10s');
    expect(formatAxisValue(90, 's')).toBe('1m30s');
    expect(formatAxisValue(3600, 's')).toBe('1h');
    expect(formatAxisValue(4200, 's')).toBe('1h10m');
    expect(formatAxisValue(-90, 's')).toBe('-1m30s');
    expect(formatAxisValue(100000, 'samples')).toBe('100k');
  });
});
