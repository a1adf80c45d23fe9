import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_EXTRA, RUN, RUN_EXTRA } from '../../support/run-extra-expected';

// `summary RUN --json` on the run with run_extra's train dumps and request metrics, through the
// built CLI. Pinned values: tests/fixtures/run_extra/README.md and expected_extra.json.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

interface Figures {
  mismatch: {
    tokens: number;
    meanAbsDelta: number;
    maxAbsDelta: number;
    meanRatio: number;
    outsideShare: number;
  };
  staleness: {
    trainerVersion: number;
    mean: number;
    max: number;
    staleFraction: number;
    staleSamples: number;
  };
  tokensPerDpRank: { dpRank: number; samples: number; tokens: number }[];
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run npm run build (npm test does)`);
});

describe('trace-explorer on a run with its train dumps and request metrics', () => {
  it('summary RUN --json: joins.train, joins.requestMetrics and per-rollout mismatch and staleness', () => {
    const result = cli('summary', RUN, RUN_EXTRA, '--json');
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      files: { format: string }[];
      joins: Record<string, unknown>;
      rollouts: (Figures & { rolloutId: number })[];
      extra: { unjoined: { recordsWithoutSample: { rid: string }[] } };
    };
    expect(summary.files.map((f) => f.format).filter((f) => f !== 'slime-comm-timeline')).toEqual([
      'slime',
      'slime',
      'otlp',
      'sglang-request-metrics',
      'slime-train',
      'slime-train',
    ]);
    const rm = EXPECTED_EXTRA.request_metrics;
    expect(summary.joins.train).toStrictEqual({
      samples: 64,
      joinedSamples: 64,
      unjoinedSamples: 0,
    });
    expect(summary.joins.requestMetrics).toStrictEqual({
      records: rm.records,
      recordsWithSample: rm.records_joined_to_slime_sample,
      recordsWithoutSample: 1,
      samplesWithoutRecord: 0,
      skippedLines: 0,
    });
    expect(summary.extra.unjoined.recordsWithoutSample.map((r) => r.rid)).toEqual(
      rm.records_without_sample.map((r) => r.id),
    );
    ['train_0.pt', 'train_1.pt'].forEach((name, k) => {
      const want = EXPECTED_EXTRA.train.files[name];
      const rollout = summary.rollouts[k];
      expect(rollout.rolloutId).toBe(want.rollout_id);
      expect(rollout.mismatch.meanAbsDelta).toBeCloseTo(want.token_weighted.mean_abs_dlogp, 9);
      expect(rollout.mismatch.maxAbsDelta).toBeCloseTo(want.token_weighted.max_abs_dlogp, 9);
      expect(rollout.mismatch.meanRatio).toBeCloseTo(want.token_weighted.mean_ratio, 9);
      expect(rollout.mismatch.outsideShare).toBeCloseTo(
        want.token_weighted['share_ratio_outside_0.5_2'],
        9,
      );
      expect(rollout.staleness).toMatchObject({
        trainerVersion: want.trainer_weight_version,
        mean: 0,
        max: 0,
        staleFraction: 0,
        staleSamples: 0,
      });
      expect(rollout.tokensPerDpRank.map((r) => r.tokens)).toEqual(
        Object.values(want.loss_masked_tokens_per_dp_rank),
      );
    });
  });
});
