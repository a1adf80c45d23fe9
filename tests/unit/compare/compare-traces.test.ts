import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import {
  compareDigest,
  compareTraces,
  type CompareSide,
} from '../../../src-main/core/compare/compare-traces';
import type { CompareResult, FileSummary } from '../../../src-main/core/api/trace-api';
import { OTLP, SLIME, fixtureSource, readJson } from '../../support/fixtures';

interface ExpectedCache {
  rows: {
    row_id: number;
    items: {
      type: string;
      name: string;
      state: string;
      start_ts: number;
      display_end_ts: number;
    }[];
  }[];
}

/**
 * Independent figures for rollout 7 vs 8: tests/fixtures/slime/rollout_7_vs_8.compare.expected.json,
 * computed with torch.load and numpy from the dumps (tests/fixtures/slime/README.md), not by us.
 */
interface ExpectedSide {
  samples: number;
  status: Record<string, number>;
  response_length: { mean: number; median: number; max: number };
  reward: { mean: number; std: number };
  groups: number;
  zero_variance_groups: number;
  viewer_global_span_s: number;
}
const EXPECTED_7_VS_8 = readJson<Record<'a' | 'b', ExpectedSide>>(
  resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'),
);

/** One side as the service builds it: the digest comes from the file's worker. */
function side(path: string, fileId: string): CompareSide {
  const trace = openTraceFile([fixtureSource(path)]);
  const summary = { ...trace.summary, fileId, path } as FileSummary;
  // the digest crosses a thread boundary: it must survive structured cloning unchanged
  return { fileId, summary, digest: structuredClone(compareDigest(trace)) };
}

function stat(result: CompareResult, key: string): { a: number | null; b: number | null } {
  const entry = result.stats.find((s) => s.key === key);
  if (!entry) throw new Error(`no stat ${key} in ${result.stats.map((s) => s.key).join(', ')}`);
  return { a: entry.a, b: entry.b };
}

/**
 * Computed inside each test, not once in the describe: code run while tests are collected is
 * invisible to mutation testing (a mutant that throws there fails no test).
 */
const compare7vs8 = () =>
  compareTraces(
    side(resolve(SLIME, 'rollout_7.pt'), 'a'),
    side(resolve(SLIME, 'rollout_8.pt'), 'b'),
  );

describe('rollout 7 vs rollout 8 against numpy’s figures', () => {
  const { a, b } = EXPECTED_7_VS_8;

  it('samples and rows', () => {
    const result = compare7vs8();
    expect(stat(result, 'rollout/samples')).toEqual({ a: a.samples, b: b.samples });
    // every sample of both dumps is traced: one row per sample, none untraced
    expect(stat(result, 'rollout/rows')).toEqual({ a: a.samples, b: b.samples });
    expect(stat(result, 'rollout/untraced_samples')).toEqual({ a: 0, b: 0 });
  });

  it('status counts; a status absent on one side is null there, not 0', () => {
    const result = compare7vs8();
    const statuses = new Set([...Object.keys(a.status), ...Object.keys(b.status)]);
    // the expected file names completed, truncated and aborted (only rollout 8 has aborted ones)
    expect([...statuses].sort()).toEqual(['aborted', 'completed', 'truncated']);
    for (const status of statuses)
      expect(stat(result, `status/${status}`), status).toEqual({
        a: a.status[status] ?? null,
        b: b.status[status] ?? null,
      });
    const statusKeys = result.stats.filter((s) => s.key.startsWith('status/')).map((s) => s.key);
    expect(statusKeys.sort()).toEqual(['status/aborted', 'status/completed', 'status/truncated']);
  });

  it('reward mean (numpy’s mean of every sample’s reward)', () => {
    const result = compare7vs8();
    const reward = stat(result, 'reward/mean');
    expect(reward.a).toBeCloseTo(a.reward.mean, 12);
    expect(reward.b).toBeCloseTo(b.reward.mean, 12);
  });

  it('response length mean, from the samples’ response_length (not the max, not 0)', () => {
    const result = compare7vs8();
    const length = stat(result, 'response_length/mean');
    // the figures are sums of integers over 24: exact in binary floating point
    expect(length).toEqual({ a: a.response_length.mean, b: b.response_length.mean });
    // the mean differs from the max and median in the expected file, so neither can pass for it
    expect(a.response_length.max).not.toBe(a.response_length.mean);
    expect(b.response_length.median).not.toBe(b.response_length.mean);
  });

  it('wall time is the span slime’s viewer draws', () => {
    const result = compare7vs8();
    const wall = stat(result, 'rollout/wall_time_sec');
    expect(wall.a).toBeCloseTo(a.viewer_global_span_s, 6);
    expect(wall.b).toBeCloseTo(b.viewer_global_span_s, 6);
  });

  it('matches all 24 samples by index: rollout 8 re-numbers nothing', () => {
    const result = compare7vs8();
    expect(result.matched).toHaveLength(24);
    expect(result.matched.every((m) => m.key === `index ${m.aRowId}`)).toBe(true);
    expect(result.onlyA).toEqual([]);
    expect(result.onlyB).toEqual([]);
  });

  it('perf: slime’s perf keys of each file, each side its own value, keys sorted once', () => {
    const result = compare7vs8();
    // slime's own perf figures for each dump (tests/fixtures/slime/README.md)
    const perfA = readJson<Record<string, number>>(
      resolve(SLIME, 'rollout_7.pt.perf.expected.json'),
    );
    const perfB = readJson<Record<string, number>>(
      resolve(SLIME, 'rollout_8.pt.perf.expected.json'),
    );
    const byKey = new Map(result.perf.map((p) => [p.key, p]));
    expect(Object.keys(perfA).length).toBeGreaterThan(10);
    for (const [key, value] of Object.entries(perfA))
      expect(byKey.get(key)?.a, key).toBeCloseTo(value, 9);
    for (const [key, value] of Object.entries(perfB))
      expect(byKey.get(key)?.b, key).toBeCloseTo(value, 9);
    const keys = result.perf.map((p) => p.key);
    expect(keys).toEqual([...new Set(keys)].sort());
  });

  it('span totals are sorted by how much time moved, largest first', () => {
    const result = compare7vs8();
    const moved = result.spanTotals.map((t) => Math.abs(t.bSec - t.aSec));
    expect(moved.length).toBeGreaterThan(1);
    expect(moved).toEqual([...moved].sort((x, y) => y - x));
    expect(moved[0]).toBeGreaterThan(moved.at(-1)!);
  });
});

describe('comparing two rollouts from their digests', () => {
  it('a dump against itself: every row matched, span counts equal slime’s', () => {
    const path = resolve(SLIME, 'rollout_agentic.pt');
    const result = compareTraces(side(path, 'a'), side(path, 'b'));
    const expected = readJson<ExpectedCache>(`${path}.expected.json`);
    expect(result.matched).toHaveLength(expected.rows.length);
    expect(result.onlyA).toEqual([]);
    expect(result.onlyB).toEqual([]);
    // span counts per name are slime's spans (its viewer's cache)
    const slimeSpans = new Map<string, { count: number; sec: number }>();
    for (const row of expected.rows)
      for (const item of row.items) {
        if (item.type !== 'span') continue;
        const entry = slimeSpans.get(item.name) ?? { count: 0, sec: 0 };
        entry.count += 1;
        entry.sec += item.display_end_ts - item.start_ts;
        slimeSpans.set(item.name, entry);
      }
    // deliberately ours: PD phase child spans are segments of their [P]/[D] span, not spans
    const spanNames = [...slimeSpans.keys()].filter((n) => !/^sglang_pd_(prefill|decode)_/.test(n));
    expect(spanNames.length).toBeGreaterThan(3);
    for (const name of spanNames) {
      const entry = result.spanTotals.find((t) => t.name === name)!;
      const want = slimeSpans.get(name)!;
      expect([entry.aCount, entry.bCount], name).toEqual([want.count, want.count]);
      expect(entry.aSec, name).toBeCloseTo(want.sec, 6);
      expect(entry.bSec, name).toBeCloseTo(want.sec, 6);
    }
    // nothing moved: ties sort by name
    const names = result.spanTotals.map((t) => t.name);
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));
  });

  it('different rollouts: samples missing on one side are listed as only-A or only-B', () => {
    const result = compareTraces(
      side(resolve(SLIME, 'rollout_small.pt'), 'a'),
      side(resolve(SLIME, 'rollout_agentic.pt'), 'b'),
    );
    const rowsA = readJson<ExpectedCache>(resolve(SLIME, 'rollout_small.pt.expected.json')).rows
      .length;
    const rowsB = readJson<ExpectedCache>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows
      .length;
    expect(result.matched.length + result.onlyA.length).toBe(rowsA);
    expect(result.matched.length + result.onlyB.length).toBe(rowsB);
    expect(stat(result, 'rollout/rows')).toEqual({ a: rowsA, b: rowsB });
  });

  it('a dump and an OTLP file cannot be compared: the message names both kinds', () => {
    expect(() =>
      compareTraces(
        side(resolve(SLIME, 'rollout_small.pt'), 'a'),
        side(resolve(OTLP, 'sglang_otel_trace.json'), 'b'),
      ),
    ).toThrow('cannot compare a slime dump with a OpenTelemetry trace');
  });
});
