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

  it('changes are coloured only beyond noise; small changes folded, the rest by effect', () => {
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
    expect(result.noiseRule).toMatch(/at least 5% of the larger side and at least 10 ms/);
    // the 0.4 ms minimum is under the small changes fold, in µs
    expect(tiny.small).toBe(true);
    expect(tiny.shown.unit).toBe('µs');
    const table = [...result.stats, ...result.perf].sort((x, y) => x.rank - y.rank);
    expect(table.map((f) => f.rank)).toEqual(table.map((_, i) => i));
    // every change beyond noise comes before every small change
    const firstSmall = table.findIndex((f) => f.small);
    expect(table.slice(firstSmall).every((f) => f.small)).toBe(true);
    // the idle hour (0 -> 3539 s) moved most seconds: first after the viewer span it is part of
    expect(table.slice(0, 3).map((f) => f.key)).toEqual([
      'rollout/viewer_span_sec',
      'rollout/idle_between_attempts_sec',
      'row_duration/mean_sec',
    ]);
    expect(stat('rollout/idle_between_attempts_sec').shown).toEqual({
      unit: 'min',
      a: '0',
      b: '58.98',
      delta: '+58.98',
    });
    // the mean row duration is the resumed rows' idle hour: it says so, and the mean without
    // them is given beside it
    expect(stat('row_duration/mean_sec').note).toMatch(/includes B's 8 resumed rows/);
    const notResumed = stat('row_duration/mean_sec_not_resumed');
    expect(notResumed.b!).toBeLessThan(stat('row_duration/mean_sec').b! / 10);
    expect(notResumed.a).toBe(stat('row_duration/mean_sec').a);
  });

  it('the answer names the sample that ended B, its status and retry, and what moved, in defined words', () => {
    const result = compare7vs8();
    expect(result.answer.slice(1).map(plain)).toEqual([
      "In its own window B took 58.3 s against A's 42.0 s (+16.3 s, +38.8%).",
      'B ended with sample #9 (group 2) (truncated, retried: attempt 2), the slowest of its last group, whose last request (sglang_generate) took 3.3 s.',
      'What kept each rollout open moved most in decode +14.3 s, unsplit request +2.6 s, tool calls −0.69 s.',
      'In B, the last 3 samples (12.5%) kept the rollout open for 13.3% of its own wall time (7.8 s of 58.3 s).',
    ]);
    expect(result.answer[2].find((p) => p.rowIds)).toEqual({
      text: 'sample #9 (group 2)',
      side: 'b',
      rowIds: [9],
    });
    // no category the glossary does not define
    expect(result.answer.map(plain).join(' ')).not.toMatch(/generation/);
  });

  it('swapping A and B gives the same figures in the same order, signs flipped', () => {
    const ab = compare7vs8();
    const ba = compareTraces(side('rollout_8.pt', 'a'), side('rollout_7.pt', 'b'));
    const order = (r: CompareResult) => [...r.stats, ...r.perf].sort((x, y) => x.rank - y.rank);
    const [x, y] = [order(ab), order(ba)];
    expect(y.map((f) => f.key)).toEqual(x.map((f) => f.key));
    const flip: Record<string, string> = { better: 'worse', worse: 'better' };
    x.forEach((f, i) => {
      const g = y[i];
      expect([g.a, g.b], f.key).toEqual([f.b, f.a]);
      expect(g.small, f.key).toBe(f.small);
      expect(g.verdict, f.key).toBe(flip[f.verdict] ?? f.verdict);
      const neg = (t: string) =>
        t.startsWith('+') ? `−${t.slice(1)}` : t.startsWith('−') ? `+${t.slice(1)}` : t;
      expect(g.shown.delta, f.key).toBe(neg(f.shown.delta));
    });
    // the moves of what kept each rollout open: the same categories, in the same order
    const moves = (r: CompareResult) =>
      plain(r.answer.find((s) => plain(s).startsWith('What kept'))!).replace(/[+−]/g, '±');
    expect(moves(ba)).toBe(moves(ab));
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
    // then the sample that ended B, linked
    expect(r.answer[1].some((p) => p.rowIds?.length === 1 && p.side === 'b')).toBe(true);
  });
});

describe('compare with an aborted straggler whose request never ended', () => {
  // rollout_small.pt's row 0 (sample 0, group 0) is aborted: its last sglang_generate has no end
  // (slime's cache: state open_span, clipped at the row's end) and it finishes the file last
  it('names the aborted, unfinished request of B’s last sample, linked, and counts it as unfinished request', () => {
    const cache = readJson<{
      rows: { row_id: number; status: string; items: { name: string; state: string }[] }[];
    }>(resolve(SLIME, 'rollout_small.pt.expected.json'));
    const row0 = cache.rows[0];
    expect(row0.status).toBe('aborted');
    expect(row0.items.some((i) => i.name === 'sglang_generate' && i.state === 'open_span')).toBe(
      true,
    );
    const r = compareTraces(side('rollout_agentic.pt', 'a'), side('rollout_small.pt', 'b'));
    expect(r.answer.map(plain)).toEqual([
      'B took 5.7 s less than A (48.8 s vs 54.5 s, −10.5%).',
      'B was held open 48.7 s by the aborted request (sglang_generate) of sample #0 (group 0), which never ended.',
      'What kept each rollout open moved most in decode −51.6 s, unfinished request +48.7 s, tool calls −1.9 s.',
      'In B, the last 2 samples (12.5%) kept the rollout open for 45.4% of its own wall time (22.1 s of 48.8 s).',
    ]);
    expect(r.answer[1].find((p) => p.rowIds)).toEqual({
      text: 'sample #0 (group 0)',
      side: 'b',
      rowIds: [0],
    });
    const unfinished = r.wallTime.find((w) => w.category === 'unfinished request')!;
    expect(unfinished.bOwnSec).toBeCloseTo(48.7, 1);
    expect(unfinished.aOwnSec).toBe(0);
  });
});
