import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { buildRolloutFigures } from '../../../src-main/core/open/build-rollout-figures';
import {
  compareDigest,
  compareDigestSteps,
  keptCompareDigest,
  warmCompareDigest,
  compareRollout,
  compareTraces,
  completeDigest,
  type CompareSide,
  type RowDigest,
} from '../../../src-main/core/compare/compare-traces';
import type { CompareResult, FileSummary } from '../../../src-main/core/api/trace-api';
import { OTLP, SLIME, fixtureSource, readJson } from '../../support/fixtures';
import { rowDigestColumns, rowDigestsOf } from '../../../src-main/core/compare/row-digest-columns';
import { matchedPairList } from '../../../src-main/core/compare/matched-pair-list';

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

  it('row duration mean is the mean of slime’s row durations', () => {
    const result = compare7vs8();
    const mean = (name: string) => {
      const rows = readJson<{ rows: { duration: number }[] }>(
        resolve(SLIME, `${name}.expected.json`),
      ).rows;
      return rows.reduce((s, r) => s + r.duration, 0) / rows.length;
    };
    const duration = stat(result, 'row_duration/mean_sec');
    // slime's cache rounds each duration to 6 decimals
    expect(duration.a).toBeCloseTo(mean('rollout_7.pt'), 5);
    expect(duration.b).toBeCloseTo(mean('rollout_8.pt'), 5);
  });

  it('the viewer span is the span slime’s viewer draws (wall time is the own window: issue 17)', () => {
    const result = compare7vs8();
    const wall = stat(result, 'rollout/viewer_span_sec');
    expect(wall.a).toBeCloseTo(a.viewer_global_span_s, 6);
    expect(wall.b).toBeCloseTo(b.viewer_global_span_s, 6);
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
    // each key once (ordered by |Δ%|, issue 17)
    const keys = result.perf.map((p) => p.key);
    expect(keys).toHaveLength(new Set(keys).size);
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
    expect(result.matched.aRowIds).toHaveLength(expected.rows.length);
    expect(result.onlyA).toEqual(new Int32Array());
    expect(result.onlyB).toEqual(new Int32Array());
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
    expect(result.matched.aRowIds.length + result.onlyA.length).toBe(rowsA);
    expect(result.matched.bRowIds.length + result.onlyB.length).toBe(rowsB);
    expect(result.stats.find((s) => s.key === 'rollout/rows')).toMatchObject({
      key: 'rollout/rows',
      a: rowsA,
      b: rowsB,
      unit: 'samples',
    });
  });

  it('an OTLP trace has no samples: no response lengths, no prompt key', () => {
    const trace = openTraceFile([fixtureSource(resolve(OTLP, 'sglang_otel_trace.json'))]);
    const digest = compareDigest(trace);
    // 20 traces, one row each (tests/fixtures/otlp/README.md)
    expect(digest.rows.rowIds).toHaveLength(20);
    // a trace has no sample response_length
    const rows = rowDigestsOf(digest.rows);
    expect(rows.map((r) => r.response_length)).toEqual(Array(20).fill(null));
    expect(rows.map((r) => r.promptKey)).toEqual(Array(20).fill(null));
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

describe('matching samples and figures on digests made by hand', () => {
  // The matching rule (core/compare/match-samples.ts, issue 17): by index only when every pair an
  // index would make has the same group and prompt; otherwise by group and prompt, each B row
  // used once; the rest listed as only-A or only-B.
  const row = (
    row_id: number,
    sample_index: number | null,
    promptKey: string | null,
    extra: Partial<RowDigest> = {},
  ): RowDigest => ({
    row_id,
    sample_index,
    status: 'completed',
    reward: 1,
    response_length: 10,
    duration: 2,
    promptKey,
    ...extra,
  });
  const sideOf = (fileId: string, rows: RowDigest[]): CompareSide => ({
    fileId,
    summary: {
      format: 'slime',
      formatLabels: { noun: 'slime dump' },
      samples: rows.length,
      rows: rows.length,
      untracedSamples: 0,
    } as FileSummary,
    digest: completeDigest(
      { samples: rows.length, rows: rows.length, untracedSamples: 0 },
      {
        perf: {},
        spanTotals: [],
        rows: rowDigestColumns(rows),
        rollout: compareRollout(buildRolloutFigures([], [], null)),
      },
    ),
  });

  /** the answer with its pairs and only-lists as the CLI's JSON lists them */
  const compareListed = (a: CompareSide, b: CompareSide) => {
    const result = compareTraces(a, b);
    return {
      ...result,
      matched: matchedPairList(result, a.digest.rows),
      onlyA: Array.from(result.onlyA),
      onlyB: Array.from(result.onlyB),
    };
  };

  it('prompts agree at every index: matched by index, the rest only-B', () => {
    const result = compareListed(
      sideOf('a', [row(0, 0, 'g0|p'), row(1, 1, 'g0|q')]),
      sideOf('b', [row(0, 0, 'g0|p'), row(1, 1, 'g0|q'), row(2, 2, 'g1|r')]),
    );
    expect(result.matchedBy).toBe('index');
    expect(result.matched).toEqual([
      { aRowId: 0, bRowId: 0, key: 'index 0' },
      { aRowId: 1, bRowId: 1, key: 'index 1' },
    ]);
    expect([result.onlyA, result.onlyB]).toEqual([[], [2]]);
  });

  it('an index pair with other prompts: matched by group and prompt only', () => {
    const result = compareListed(
      sideOf('a', [row(0, 0, 'g0|p'), row(1, 1, 'g0|q'), row(2, null, 'g1|r'), row(3, 7, 'g2|s')]),
      sideOf('b', [
        row(0, 0, 'g9|z'),
        row(1, 5, 'g0|q'),
        row(2, 6, 'g1|r'),
        row(3, 8, null),
        row(4, 1, 'g0|q'),
      ]),
    );
    expect(result.matchedBy).toBe('group and prompt');
    // A's row 1 takes the first B row with its prompt (row 1), so B's row 4 is left over
    expect(result.matched).toEqual([
      { aRowId: 1, bRowId: 1, key: 'group and prompt' },
      { aRowId: 2, bRowId: 2, key: 'group and prompt' },
    ]);
    expect(result.onlyA).toEqual([0, 3]);
    expect(result.onlyB).toEqual([0, 3, 4]);
  });

  it('a B row is used once: three A rows with one prompt, one B row with it', () => {
    const result = compareListed(
      sideOf('a', [row(0, 3, 'p'), row(1, 3, 'p'), row(2, 3, 'p')]),
      sideOf('b', [row(0, 3, 'x'), row(1, 9, 'p')]),
    );
    expect(result.matched).toEqual([{ aRowId: 0, bRowId: 1, key: 'group and prompt' }]);
    expect([result.onlyA, result.onlyB]).toEqual([[1, 2], [0]]);
  });

  it('a string sample index matches the same string; null indexes never match by index', () => {
    const result = compareListed(
      sideOf('a', [row(0, 'k' as never, 'p'), row(1, null, 'q')]),
      sideOf('b', [row(0, null, 'q'), row(1, 'k' as never, 'p')]),
    );
    expect(result.matchedBy).toBe('index');
    expect(result.matched).toEqual([{ aRowId: 0, bRowId: 1, key: 'index k' }]);
    expect([result.onlyA, result.onlyB]).toEqual([[1], [0]]);
  });

  it('means over rows; an empty side has none', () => {
    const result = compareTraces(
      sideOf('a', [
        row(0, 0, null, { reward: 1, response_length: 10, duration: 2, status: 'aborted' }),
        row(1, 1, null, { reward: null, response_length: 30, duration: 6, status: null }),
      ]),
      sideOf('b', []),
    );
    const stat = (key: string) => {
      const found = result.stats.find((s) => s.key === key);
      return found ? [found.a, found.b] : undefined;
    };
    // the reward mean skips a row without a reward
    expect(stat('reward/mean')).toEqual([1, null]);
    expect(stat('response_length/mean')).toEqual([20, null]);
    expect(stat('response_length/max')).toEqual([30, null]);
    expect(stat('row_duration/mean_sec')).toEqual([4, null]);
    expect(stat('status/aborted')).toEqual([1, null]);
    expect(stat('status/none')).toEqual([1, null]);
    expect(stat('rollout/samples')).toEqual([2, 0]);
  });

  it('span totals: a name on one side only is 0 on the other; largest move first', () => {
    const a = sideOf('a', []);
    const b = sideOf('b', []);
    a.digest.spanTotals = [
      ['only_a', 3, 1],
      ['both', 10, 4],
    ];
    b.digest.spanTotals = [
      ['both', 11, 5],
      ['only_b', 7, 2],
    ];
    expect(compareTraces(a, b).spanTotals).toEqual([
      { name: 'only_b', aSec: 0, bSec: 7, aCount: 0, bCount: 2 },
      { name: 'only_a', aSec: 3, bSec: 0, aCount: 1, bCount: 0 },
      { name: 'both', aSec: 10, bSec: 11, aCount: 4, bCount: 5 },
    ]);
  });

  it('perf keys: the union, null where a side lacks one', () => {
    const a = sideOf('a', []);
    const b = sideOf('b', []);
    a.digest.perf = { 'perf/z': 1, 'perf/a': 2 };
    b.digest.perf = { 'perf/m': 3, 'perf/a': 4 };
    const perf = compareTraces(a, b).perf.map(({ key, a, b }) => ({ key, a, b }));
    expect(perf.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'perf/a', a: 2, b: 4 },
      { key: 'perf/m', a: null, b: 3 },
      { key: 'perf/z', a: 1, b: null },
    ]);
  });
});

describe('the compare digest made in steps (a worker answers calls between them)', () => {
  it('a step per slice of rows, ending in the digest made at once', () => {
    const trace = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_small.pt'))]);
    const steps = compareDigestSteps(trace, 5);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // 16 rows in slices of 5: a yield after rows 5, 10 and 15 of each pass over the rows (the
    // digests, their number columns, each text column's hashes and its table lookups: 6 passes),
    // one between the passes and parts made at once (the number columns, the index keys, the
    // prompt keys, the rollout's parts, the figures, the rows behind each status), none after the
    // last; a text column's text is joined a slice at a time, in its hash pass
    expect(yields).toBe(6 * 3 + 6);
    expect(step.value).toEqual(compareDigest(trace));
  });

  it('a call during the warm-up finishes the same digest; the warm-up then has nothing left', () => {
    const trace = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_small.pt'))]);
    // slices of 4 rows: the call comes after the first slice, 12 rows still to digest
    const warm = warmCompareDigest(trace, 4);
    expect(warm.next().done).toBe(false);
    const asked = keptCompareDigest(trace);
    expect(asked).toEqual(compareDigest(trace));
    expect(warm.next().done).toBe(true);
    expect(keptCompareDigest(trace)).toBe(asked);
  });
});
