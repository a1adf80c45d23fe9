import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, RUN_EXTRA, expectExpectedExtra } from '../../support/run-extra-expected';
import { expectClose } from '../../support/expect-close';
import type { TrendsResult } from '../../../src-main/core/model/trend';

// `trends RUN` on the run with run_extra's train dumps and request metrics, through the built
// CLI: each rollout's extra figures are summary RUN --json's, under the same keys.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const cacheDir = mkdtempSync(join(tmpdir(), 'trends-run-extra-'));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, TRACE_EXPLORER_CACHE_DIR: cacheDir },
  });

const EXTRA_KEYS = ['mismatch', 'staleness', 'tokensPerDpRank', 'requestMetrics'] as const;

interface Rollout {
  path: string;
  name: string;
  rolloutId: number;
  mismatch?: Record<string, number | null>;
  staleness?: Record<string, number | null>;
  tokensPerDpRank?: { dpRank: number; samples: number; tokens: number; totalLength: number }[];
  requestMetrics?: Record<string, number | null>;
}

const json = (...args: string[]) => {
  const result = cli(...args);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};
const pointsOf = (...args: string[]) =>
  json('trends', ...args, '--json') as unknown as { points: Rollout[]; cached: number };

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run npm run build (npm test does)`);
});
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('trends RUN with train dumps and request metrics', () => {
  it('--json: per rollout the figures summary RUN --json gives, and expected_extra.json', () => {
    const trends = pointsOf(RUN, RUN_EXTRA, '--no-cache');
    const summary = json('summary', RUN, RUN_EXTRA, '--json') as unknown as {
      rollouts: Rollout[];
    };
    expect(trends.points.map((p) => p.rolloutId)).toEqual([0, 1]);
    for (const point of trends.points) {
      const rollout = summary.rollouts.find((r) => r.path === point.path);
      expect(rollout, point.path).toBeDefined();
      for (const key of EXTRA_KEYS) {
        expect(point[key], `${point.name} ${key}`).toBeDefined();
        expectClose(point[key], rollout![key]);
      }
    }
    expectExpectedExtra(trends.points as unknown as TrendsResult['points']);
  });

  it('--json: skipped are the files read for nothing, not those the figures come from', () => {
    const { skipped } = json('trends', RUN, RUN_EXTRA, '--json', '--no-cache') as unknown as {
      skipped: { path: string; reason: string }[];
    };
    // the SGLang trace and the fixtures' notes; not train/, sglang_request_metrics/,
    // comm_timeline*/ (whose files the figures are read from) nor run_extra itself
    expect(skipped.map((s) => relative(resolve(RUN, '..'), s.path)).sort()).toEqual([
      'run/README.md',
      'run/expected_counts.json',
      'run/run_plan.json',
      'run/sglang_otel_trace.json',
      'run_extra/README.md',
      'run_extra/expected_extra.json',
      'run_extra/run_extra_plan.json',
    ]);
  });

  it('text: the extra columns with each rollout’s figures; none without those files', () => {
    const result = cli('trends', RUN, RUN_EXTRA, '--no-cache');
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    for (const title of ['|Δlogp|', 'ratio out %', 'cache hit %', 'retract', 'tok/DP rank'])
      expect(lines[0]).toContain(title);
    // run_extra/README.md: mean |Δ| 0.02375 and 1.39 % outside, 1115 / 823 tokens per DP rank
    expect(lines[1]).toMatch(/^rollout_0\.pt .* 0\.02375 +1\.393 .* 1115\/823$/);
    expect(lines[2]).toMatch(/^rollout_1\.pt .* 0\.01760 +0\.7056 .* 925\/1059$/);
    const plain = cli('trends', RUN, '--no-cache');
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout.split('\n')[0]).not.toContain('|Δlogp|');
  });

  it('a run without those files has no such fields, and the cache never serves them', () => {
    // with the extra files first, through the cache: the dumps' own figures are cached
    const withExtra = pointsOf(RUN, RUN_EXTRA);
    expect(withExtra.points.every((p) => p.mismatch !== undefined)).toBe(true);
    const plain = pointsOf(RUN);
    expect(plain.cached).toBe(2);
    for (const point of plain.points)
      for (const key of EXTRA_KEYS) expect(point[key]).toBe(undefined);
    const again = pointsOf(RUN, RUN_EXTRA);
    expect(again.cached).toBe(2);
    expectClose(again.points, withExtra.points);
  });
});
