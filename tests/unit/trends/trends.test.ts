import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { percentile, trendFigures, trendUnit } from '../../../src-main/core/trends/trend-figures';
import { SLIME, fixtureSource, readJson } from '../../support/fixtures';

// Trends across a run's rollouts (issue 21): one point per dump, its figures equal to what
// `perf` and `summary` give for that file, a cache that makes reopening cheap.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const run = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });

function figuresOf(name: string) {
  const path = resolve(SLIME, name);
  const trace = openTraceFile([fixtureSource(path)]);
  return trendFigures({
    path,
    name,
    rolloutId: trace.summary.rolloutId,
    rows: trace.rows,
    samples: trace.samples,
    perf: trace.perf,
  });
}

describe('trend figures of one rollout', () => {
  // independent values: tests/fixtures/slime/rollout_7_vs_8.compare.expected.json, computed
  // with torch.load and numpy (see tests/fixtures/slime/README.md)
  const expected = readJson<
    Record<
      'a' | 'b',
      {
        samples: number;
        status: Record<string, number>;
        response_length: { mean: number };
        reward: { mean: number; std: number };
        groups: number;
        zero_variance_groups: number;
        viewer_global_span_s: number;
      }
    >
  >(resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'));

  for (const [side, name, id] of [
    ['a', 'rollout_7.pt', 7],
    ['b', 'rollout_8.pt', 8],
  ] as const) {
    it(`${name}: samples, statuses, rewards, response length, groups as numpy computes them`, () => {
      const point = figuresOf(name);
      const want = expected[side];
      expect(point.series).toBe('rollout');
      expect(point.rolloutId).toBe(id);
      expect(point.figures['rollout/samples']).toBe(want.samples);
      expect(point.figures['status/aborted']).toBe(want.status.aborted ?? 0);
      expect(point.figures['status/truncated']).toBe(want.status.truncated ?? 0);
      expect(point.figures['status/completed']).toBe(want.status.completed);
      expect(point.figures['response_length/mean']).toBeCloseTo(want.response_length.mean, 9);
      expect(point.figures['reward/mean']).toBeCloseTo(want.reward.mean, 12);
      expect(point.figures['reward/std']).toBeCloseTo(want.reward.std, 12);
      expect(point.figures['groups/count']).toBe(want.groups);
      expect(point.figures['groups/zero_variance']).toBe(want.zero_variance_groups);
      expect(point.figures['rollout/viewer_span_sec']).toBeCloseTo(want.viewer_global_span_s, 5);
      // wall time is the rollout's own window: rollout 8's clock starts at 1760000000 + 3600 x 8
      // (fixture README), its resumed samples' first attempts ran an hour before, in rollout 7
      const ownStart = 1760000000 + 3600 * id;
      const cache = readJson<{ global_end: number }>(resolve(SLIME, `${name}.expected.json`));
      expect(point.figures['rollout/wall_time_sec']).toBeCloseTo(
        side === 'a' ? want.viewer_global_span_s : cache.global_end - ownStart,
        5,
      );
    });
  }

  it('carries slime’s perf keys unchanged', () => {
    const point = figuresOf('rollout_pd_legacy.pt');
    const perf = readJson<Record<string, number>>(
      resolve(SLIME, 'rollout_pd_legacy.pt.perf.expected.json'),
    );
    for (const [key, value] of Object.entries(perf))
      expect(point.figures[key], key).toBeCloseTo(value, 12);
  });

  it('an eval dump is its own series', () => {
    const point = figuresOf('eval_0.pt');
    expect([point.series, point.rolloutId]).toEqual(['eval', 0]);
  });

  it('p90 interpolates as numpy.percentile does', () => {
    // numpy.percentile([1, 2, 3, 4, 10], 90) = 7.6; ([5], 90) = 5
    expect(percentile([10, 1, 3, 2, 4], 90)).toBeCloseTo(7.6, 12);
    expect(percentile([5], 90)).toBe(5);
  });

  it('units follow the figure', () => {
    expect(trendUnit('perf/request/e2e_latency/p90')).toBe('s');
    expect(trendUnit('perf/decode/throughput/mean')).toBe('tok/s');
    expect(trendUnit('perf/prefill/transfer_speed_gb_s/mean')).toBe('GB/s');
    expect(trendUnit('perf/prefill/transfer_total_mb/max')).toBe('MB');
    expect(trendUnit('rollout/wall_time_sec')).toBe('s');
    expect(trendUnit('rollout/straggler_tail_share_pct')).toBe('%');
    expect(trendUnit('rollout/resumed_samples')).toBe('');
    expect(trendUnit('status/aborted')).toBe('');
    expect(trendUnit('perf/prefill/retry_count/mean')).toBe('');
  });
});

describe('trace-explorer trends FOLDER', () => {
  let folder: string;
  let cacheDir: string;
  const dumps = ['rollout_7.pt', 'rollout_8.pt', 'eval_0.pt'];

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run npm run build (npm test does)`);
    folder = mkdtempSync(join(tmpdir(), 'te-trends-'));
    cacheDir = mkdtempSync(join(tmpdir(), 'te-trends-cache-'));
    for (const name of dumps) copyFileSync(resolve(SLIME, name), join(folder, name));
    // a dump still being written: its first half
    const whole = readFileSync(resolve(SLIME, 'rollout_small.pt'));
    writeFileSync(join(folder, 'rollout_9.pt'), whole.subarray(0, whole.length >> 1));
    writeFileSync(join(folder, 'notes.txt'), 'run notes\n');
  });

  type Trends = {
    points: { name: string; series: string; rolloutId: number; figures: Record<string, number> }[];
    incomplete: { path: string; code: string }[];
    skipped: { path: string; reason: string }[];
    cached: number;
  };
  const trends = () => {
    const result = run({ TRACE_EXPLORER_CACHE_DIR: cacheDir }, 'trends', '--json', folder);
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Trends;
  };

  it('gives one point per dump, each perf value equal to `perf` of that file', () => {
    const result = trends();
    expect(result.points.map((p) => [p.name, p.series, p.rolloutId])).toEqual([
      ['rollout_7.pt', 'rollout', 7],
      ['rollout_8.pt', 'rollout', 8],
      ['eval_0.pt', 'eval', 0],
    ]);
    for (const point of result.points) {
      const path = join(folder, point.name);
      const perf = JSON.parse(run({}, 'perf', path).stdout) as Record<string, number>;
      for (const [key, value] of Object.entries(perf))
        expect(point.figures[key], `${point.name} ${key}`).toBe(value);
      const summary = JSON.parse(run({}, 'summary', '--json', path).stdout) as {
        samples: number;
        durationSec: number;
        rollout: {
          window: { durationSec: number };
          resumedSamples: unknown[];
          stragglers: { tailSec: number; wallShare: number } | null;
        };
      };
      expect(point.figures['rollout/samples']).toBe(summary.samples);
      // wall time is the rollout's own window, as summary says it; the viewer span the whole file
      expect(point.figures['rollout/wall_time_sec']).toBe(summary.rollout.window.durationSec);
      expect(point.figures['rollout/viewer_span_sec']).toBeCloseTo(summary.durationSec, 9);
      // the straggler tail and resumed samples as summary's rollout figures give them
      expect(point.figures['rollout/straggler_tail_sec']).toBe(summary.rollout.stragglers!.tailSec);
      expect(point.figures['rollout/straggler_tail_share_pct']).toBeCloseTo(
        100 * summary.rollout.stragglers!.wallShare,
        9,
      );
      expect(point.figures['rollout/resumed_samples']).toBe(summary.rollout.resumedSamples.length);
    }
    // the dump being written is incomplete, not a failure of the folder; the notes are skipped
    expect(result.incomplete.map((i) => [i.path, i.code])).toEqual([
      [join(folder, 'rollout_9.pt'), 'zip/eocd-not-found'],
    ]);
    expect(result.skipped).toEqual([
      { path: join(folder, 'notes.txt'), reason: 'not a trace this app reads' },
    ]);
    expect(result.cached).toBe(0);
  });

  it('reopening takes the figures from the cache, keyed by content, not by mtime', () => {
    const first = trends();
    const again = trends();
    expect(again.cached).toBe(3);
    expect(again.points).toEqual(first.points);
    // touched, same bytes: still the same content (issue 49: the cache keys by a digest)
    const later = new Date(Date.now() + 5000);
    utimesSync(join(folder, 'rollout_8.pt'), later, later);
    const afterTouch = trends();
    expect(afterTouch.cached).toBe(3);
    expect(afterTouch.points).toEqual(first.points);
  });

  it('prints a table with units in a terminal', () => {
    const result = run({ TRACE_EXPLORER_CACHE_DIR: cacheDir }, 'trends', folder);
    const [header, ...lines] = result.stdout.split('\n');
    expect(header).toMatch(/^file\s+series\s+id\s+samples\s+wall s\s+e2e p50 s/);
    expect(lines[0]).toMatch(/^rollout_7\.pt\s+rollout\s+7\s+24\s+42\.04\s/);
    expect(result.stdout).toContain('incomplete rollout_9.pt:');
  });
});
