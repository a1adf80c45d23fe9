import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildDurations,
  buildPerfView,
  buildRunningCurve,
} from '../../../src-main/core/open/build-perf-view';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { perfSeries } from '../../../src-main/core/rows/perf-summary';
import { OTLP, SLIME, fixtureSource } from '../../support/fixtures';

// The perf view's series, running curve and durations are made on first read (the headless
// commands never read them): each must be what building it at once gives, made once, and
// carried by a spread, JSON and a structured clone like any field.

const open = (name: string) => openTraceFile([fixtureSource(resolve(SLIME, name))]);

describe('the perf view made on first read', () => {
  it('gives the series, durations and running curve built at once (a resumed rollout)', () => {
    // rollout_8: 8 samples resumed from rollout 7 (fixture README), so the running curve starts
    // each resumed sample at its resume, not an hour earlier
    const trace = open('rollout_8.pt');
    const { rows } = trace;
    // opening did not make them
    for (const part of ['series', 'running', 'durations'])
      expect(Object.getOwnPropertyDescriptor(trace.perf, part)?.get).toBeTypeOf('function');
    expect(trace.perf.series).toEqual(perfSeries(rows));
    expect(trace.perf.series.length).toBeGreaterThan(0);
    expect(trace.perf.durations).toEqual(buildDurations(rows));
    const resumed = trace.perf.rollout.resumed;
    expect(resumed.length).toBe(8);
    const start = Math.min(...rows.map((r) => r.start));
    const resumeAt = new Map(resumed.map((r) => [r.rowId, r.resumeStartSec + start]));
    expect(trace.perf.running).toEqual(
      buildRunningCurve(rows, (row) => resumeAt.get(row.row_id) ?? row.start),
    );
    // not the curve from each row's own start: the resumed rows' earlier hour is left out
    expect(trace.perf.running).not.toEqual(buildRunningCurve(rows));
  });

  it('is made once (but the running curve), and a spread, JSON and a structured clone carry every part', () => {
    const trace = open('rollout_7.pt');
    const view = buildPerfView(true, trace.rows, trace.perf.perf, trace.samples.facts, 7);
    const clone = structuredClone(view);
    expect(Object.keys(clone).sort()).toEqual([
      'durations',
      'perf',
      'rollout',
      'running',
      'series',
    ]);
    expect(clone.series).toEqual(perfSeries(trace.rows));
    const first = view.series;
    expect(view.series).toBe(first);
    expect(view.durations).toBe(view.durations);
    // the running curve is made again when read (the perf digest reads it once): not kept
    const running = view.running;
    expect(view.running).not.toBe(running);
    expect({ ...view }.running).toEqual(running);
    expect(running.tSec.length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(view)).durations.map((d: { name: string }) => d.name)).toEqual(
      buildDurations(trace.rows).map((d) => d.name),
    );
  });

  it('has no series where the format has none, and the parts can be set', () => {
    const trace = open('rollout_small.pt');
    const view = buildPerfView(false, trace.rows, trace.perf.perf, trace.samples.facts, 0);
    expect(view.series).toEqual([]);
    const other = buildPerfView(true, trace.rows, trace.perf.perf, trace.samples.facts, 0);
    other.durations = [];
    expect(other.durations).toEqual([]);
  });
});

describe('durations per span name', () => {
  it('fold the ids in names: one `decode Req *` line for all of SGLang’s request roots', () => {
    // counted from a plain JSON.parse of the fixture, not through the reader
    const text = readFileSync(resolve(OTLP, 'sglang_otel_trace.json'), 'utf8');
    const decodeRoots: number[] = [];
    for (const line of text.split('\n').filter(Boolean)) {
      for (const rs of JSON.parse(line).resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const span of ss.spans)
            if (/^decode Req [0-9a-f]{8}$/.test(span.name) && span.endTimeUnixNano)
              decodeRoots.push(
                Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e9,
              );
    }
    expect(decodeRoots.length).toBe(20);
    const trace = openTraceFile([fixtureSource(resolve(OTLP, 'sglang_otel_trace.json'))]);
    const durations = buildDurations(trace.rows);
    expect(durations.filter((d) => / Req [0-9a-f]{8}/.test(d.name))).toEqual([]);
    const decode = durations.find((d) => d.name === 'decode Req *')!;
    const sorted = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);
    const got = sorted(decode.valuesSec);
    expect(got).toHaveLength(20);
    sorted(decodeRoots).forEach((want, i) => expect(got[i]).toBeCloseTo(want, 6));
  });
});
