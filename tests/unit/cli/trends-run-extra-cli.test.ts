import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_EXTRA, RUN, RUN_EXTRA } from '../../support/run-extra-expected';

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

/** every number of a figure object, flattened, so two can be compared to 1e-9 */
function expectClose(actual: unknown, expected: unknown) {
  if (typeof expected === 'number' && typeof actual === 'number')
    expect(actual).toBeCloseTo(expected, 9);
  else if (expected !== null && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected))
      expectClose((actual as Record<string, unknown>)[key], value);
  } else expect(actual).toBe(expected);
}

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
    ['train_0.pt', 'train_1.pt'].forEach((name, k) => {
      const want = EXPECTED_EXTRA.train.files[name];
      const point = trends.points[k];
      expect(point.rolloutId).toBe(want.rollout_id);
      expect(point.mismatch!.meanAbsDelta).toBeCloseTo(want.token_weighted.mean_abs_dlogp, 9);
      expect(point.mismatch!.maxAbsDelta).toBeCloseTo(want.token_weighted.max_abs_dlogp, 9);
      expect(point.mismatch!.meanRatio).toBeCloseTo(want.token_weighted.mean_ratio, 9);
      expect(point.mismatch!.outsideShare).toBeCloseTo(
        want.token_weighted['share_ratio_outside_0.5_2'],
        9,
      );
      expect(point.mismatch!.tokens).toBe(want.loss_masked_tokens);
      expect(point.staleness).toMatchObject({ trainerVersion: want.trainer_weight_version });
      const age = (key: string) =>
        want.verl_behavior_age[`training/off_policy/token_staleness/${key}`];
      expect(point.staleness!.mean).toBeCloseTo(age('mean'), 9);
      expect(point.staleness!.max).toBe(age('max'));
      expect(point.staleness!.staleFraction).toBeCloseTo(age('stale_fraction'), 9);
      expect(point.tokensPerDpRank!.map((r) => r.tokens)).toEqual(
        Object.values(want.loss_masked_tokens_per_dp_rank),
      );
      expect(point.requestMetrics!.records).toBe(
        EXPECTED_EXTRA.request_metrics.joined_records_per_rollout_dump[String(want.rollout_id)],
      );
      expect(point.requestMetrics!.retractions).toBe(0);
    });
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
