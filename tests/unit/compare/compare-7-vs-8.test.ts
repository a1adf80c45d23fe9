import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import {
  compareDigest,
  compareTraces,
  type CompareSide,
} from '../../../src-main/core/compare/compare-traces';
import type { CompareResult, FileSummary } from '../../../src-main/core/api/trace-api';
import { SLIME, fixtureSource, readJson } from '../../support/fixtures';

/**
 * Rollout 8 resumes groups 0 and 1 (8 samples) of rollout 7 (fixture README): compare must say
 * the missing hour is idle time between attempts. Independent figures come from
 * rollout_7_vs_8.compare.expected.json (torch.load + numpy).
 */
interface SideFigures {
  samples: number;
  status: Record<string, number>;
  response_length: { mean: number; median: number; max: number };
  reward: { mean: number; std: number };
  groups: number;
  zero_variance_groups: number;
  viewer_global_span_s: number;
}
const expected = readJson<{ a: SideFigures; b: SideFigures }>(
  resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'),
);

function side(name: string, fileId: string): CompareSide {
  const path = resolve(SLIME, name);
  const trace = openTraceFile([fixtureSource(path)]);
  const summary = { ...trace.summary, fileId, path } as FileSummary;
  return { fileId, summary, digest: structuredClone(compareDigest(trace)) };
}

/**
 * Computed inside each test, not once at collection: code run while tests are collected is
 * invisible to mutation testing's per-test coverage.
 */
const compare7vs8 = () => compareTraces(side('rollout_7.pt', 'a'), side('rollout_8.pt', 'b'));
const statOf = (result: CompareResult, key: string) => result.stats.find((s) => s.key === key)!;
const plain = (sentence: CompareResult['answer'][number]) => sentence.map((p) => p.text).join('');

describe('compare rollout 7 with rollout 8 (partial-rollout resume)', () => {
  it('headline figures equal the independent numpy figures', () => {
    const result = compare7vs8();
    const stat = (key: string) => statOf(result, key);
    for (const [s, want] of [
      ['a', expected.a],
      ['b', expected.b],
    ] as const) {
      const v = (key: string) => stat(key)[s];
      expect(v('rollout/samples')).toBe(want.samples);
      for (const [status, count] of Object.entries(want.status))
        expect(v(`status/${status}`)).toBe(count);
      // from the samples' response_length (the rows' total_response_length is 0 in these dumps)
      expect(v('response_length/mean')).toBe(want.response_length.mean);
      expect(v('response_length/median')).toBe(want.response_length.median);
      expect(v('response_length/max')).toBe(want.response_length.max);
      expect(v('reward/mean')).toBeCloseTo(want.reward.mean, 12);
      expect(v('reward/std')).toBeCloseTo(want.reward.std, 12);
      expect(v('groups/count')).toBe(want.groups);
      expect(v('groups/zero_variance_groups')).toBe(want.zero_variance_groups);
      // rows round times to 6 decimals as slime's cache does
      expect(v('rollout/viewer_span_sec')).toBeCloseTo(want.viewer_global_span_s, 5);
    }
    expect(stat('response_length/mean').unit).toBe('tokens');
  });

  it('wall time is each rollout’s own window: rollout 8 from its own clock start (1760000000 + 3600 x 8)', () => {
    const result = compare7vs8();
    const stat = (key: string) => statOf(result, key);
    const cache8 = readJson<{ global_end: number }>(resolve(SLIME, 'rollout_8.pt.expected.json'));
    expect(stat('rollout/wall_time_sec').a).toBeCloseTo(expected.a.viewer_global_span_s, 5);
    expect(stat('rollout/wall_time_sec').b).toBeCloseTo(cache8.global_end - 1760028800, 5);
    expect(stat('rollout/wall_time_sec').unit).toBe('s');
    expect(stat('rollout/resumed_samples').b).toBe(8);
    expect(result.windows.b.own).toMatch(
      /own window: 3570\.0-3628\.3 s \(58\.3 s\); earlier attempts of 8 resumed samples left out/,
    );
  });

  it('the answer comes first and names the idle time, linked to the resumed rows of B', () => {
    const result = compare7vs8();
    const first = result.answer[0];
    expect(plain(first)).toMatch(
      /^B took 3586 s longer than A over the whole file as slime's viewer spans it \(3628 s vs 42\.0 s\): 3539 s are idle time before the second attempts of 8 samples resumed from rollout 7 and 31\.2 s their earlier attempts there\.$/,
    );
    const link = first.find((p) => p.rowIds)!;
    expect(link).toEqual({
      text: '8 samples resumed from rollout 7',
      side: 'b',
      rowIds: [0, 1, 2, 3, 4, 5, 6, 7],
    });
    expect(plain(result.answer[1])).toMatch(
      /^In its own window B took 58\.3 s against A's 42\.0 s \(\+16\.3 s, \+38\.8%\)/,
    );
    // the idle hour is in the wall-time breakdown, not hidden in sums of span durations
    const idle = result.wallTime.find((w) => w.category === 'idle between attempts')!;
    expect(idle.aWholeSec).toBe(0);
    expect(idle.bWholeSec).toBeCloseTo(3538.83, 2);
    expect(idle.bOwnSec).toBe(0);
  });

  it('each wall-time breakdown sums to its window', () => {
    const result = compare7vs8();
    const stat = (key: string) => statOf(result, key);
    const sum = (key: 'aOwnSec' | 'bOwnSec' | 'aWholeSec' | 'bWholeSec') =>
      result.wallTime.reduce((s, w) => s + w[key], 0);
    expect(sum('aOwnSec')).toBeCloseTo(stat('rollout/wall_time_sec').a!, 9);
    expect(sum('bOwnSec')).toBeCloseTo(stat('rollout/wall_time_sec').b!, 9);
    expect(sum('aWholeSec')).toBeCloseTo(stat('rollout/viewer_span_sec').a!, 9);
    expect(sum('bWholeSec')).toBeCloseTo(stat('rollout/viewer_span_sec').b!, 9);
  });

  it('changes are coloured only beyond noise; figures sorted by |Δ%|', () => {
    const result = compare7vs8();
    const stat = (key: string) => statOf(result, key);
    // +700% on a 0.4 ms change: noise (under the 10 ms floor for times)
    const tiny = result.perf.find((p) => p.key === 'perf/prefill/alloc_wait_duration/min')!;
    expect(tiny.relative!).toBeGreaterThan(6);
    expect(tiny.verdict).toBe('noise');
    // reward/std moves 2.1%: under 5%
    expect(stat('reward/std').verdict).toBe('noise');
    expect(stat('rollout/wall_time_sec').verdict).toBe('worse');
    expect(stat('reward/mean').verdict).toBe('worse');
    expect(result.noiseRule).toMatch(/at least 5% and at least 10 ms/);
    const rel = result.perf.filter((p) => p.relative !== null).map((p) => Math.abs(p.relative!));
    expect(rel).toEqual([...rel].sort((x, y) => y - x));
  });

  it('prompts differ, so samples match by group and prompt, not index; the unmatched are listed', () => {
    const result = compare7vs8();
    expect(result.matchedBy).toBe('group and prompt');
    expect(result.matched.aRowIds.length + result.onlyA.length).toBe(24);
    expect(result.matched.bRowIds.length + result.onlyB.length).toBe(24);
    const self = compareTraces(side('rollout_8.pt', 'a'), side('rollout_8.pt', 'b'));
    expect(self.matchedBy).toBe('index');
    expect(self.matched.aRowIds).toEqual(Int32Array.from({ length: 24 }, (_, i) => i));
    expect(self.matched.bRowIds).toEqual(self.matched.aRowIds);
    expect(self.stats.every((s) => s.verdict === 'noise' || s.verdict === 'none')).toBe(true);
  });

  it('figures that count samples carry the rows behind them (statuses from slime’s rows)', () => {
    const result = compare7vs8();
    const stat = (key: string) => statOf(result, key);
    const cache8 = readJson<{ rows: { row_id: number; status: string; group_index: number }[] }>(
      resolve(SLIME, 'rollout_8.pt.expected.json'),
    );
    const aborted = cache8.rows.filter((r) => r.status === 'aborted').map((r) => r.row_id);
    expect(aborted).toHaveLength(expected.b.status.aborted);
    expect(stat('status/aborted').bRowIds).toEqual(Int32Array.from(aborted));
    expect(stat('status/aborted').aRowIds).toBeUndefined();
    expect(stat('groups/zero_variance_groups').bRowIds).toEqual(
      Int32Array.from(cache8.rows.filter((r) => r.group_index === 5).map((r) => r.row_id)),
    );
    const idle = result.wallTime.find((w) => w.category === 'idle between attempts')!;
    expect(idle.bRowIds).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(idle.aRowIds).toEqual([]);
  });
});

describe('compare without resumed samples', () => {
  it('the answer starts with the wall-time difference and what kept the rollout open', () => {
    const r = compareTraces(side('rollout_small.pt', 'a'), side('rollout_agentic.pt', 'b'));
    const a = r.stats.find((s) => s.key === 'rollout/wall_time_sec')!;
    const diff = a.b! - a.a!;
    // no idle time on either side: no sentence about attempts, the first is about wall time
    expect(r.answer.map(plain).join(' ')).not.toContain('idle time');
    expect(plain(r.answer[0])).toMatch(
      new RegExp(
        `^B took ${Math.abs(diff).toFixed(1)} s ${diff >= 0 ? 'longer' : 'less'} than A \\(`,
      ),
    );
    expect(r.answer[0].some((p) => p.rowIds?.length === 1 && p.side === 'b')).toBe(true);
  });
});
