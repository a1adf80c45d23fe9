import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { runDigest } from '../../../src-main/core/run/run-digest';
import { buildRunJoins } from '../../../src-main/core/run/build-run-joins';
import { EXPECTED_EXTRA, RUN, RUN_EXTRA } from '../../support/run-extra-expected';

// run_extra's train dumps joined to run's rollout dumps (README "Train", "Log-prob mismatch",
// "Staleness"; expected_extra.json "train"), with the trainer's timeline for its versions.
const digestOf = (dir: string, path: string) =>
  runDigest(openTraceFile([bytesSource(path, readFileSync(join(dir, path)))]));

const dumps = ['rollout_0.pt', 'rollout_1.pt'].map((p) => digestOf(RUN, p));
const sglang = digestOf(RUN, 'sglang_otel_trace.json');
const trainer = ['comm_timeline/slime-trainer-0.jsonl', 'comm_timeline/slime-trainer-1.jsonl'].map(
  (p) => digestOf(RUN, p),
);
const train = ['train/train_0.pt', 'train/train_1.pt'].map((p) => digestOf(RUN_EXTRA, p));
const files = ['train_0.pt', 'train_1.pt'].map((name) => EXPECTED_EXTRA.train.files[name]);

describe("a run's train-side dumps", () => {
  it('are their own role, and join every train sample to its rollout sample by rollout_position', () => {
    expect(train.map((d) => d.role)).toEqual(['train', 'train']);
    const joins = buildRunJoins([...dumps, sglang, ...trainer, ...train]);
    const joined = files.reduce((n, f) => n + f.joined_by_rollout_position, 0);
    expect(joins.counts.train).toEqual({ samples: 64, joinedSamples: joined, unjoinedSamples: 0 });
    expect(joins.extra!.trainWithoutSample).toEqual([]);
    expect(joins.extra!.samplesWithoutTrain).toEqual([]);
    // the earlier counts are as they were
    expect(joins.counts.samplesWithServerRequests).toBe(64);
    expect(joins.counts.requestMetrics).toBeUndefined();
  });

  it('lists the unjoined both ways: a train dump without its rollout dump, and that rollout dump without it', () => {
    const joins = buildRunJoins([dumps[0], ...trainer, train[1]]);
    expect(joins.counts.train).toEqual({ samples: 32, joinedSamples: 0, unjoinedSamples: 32 });
    expect(joins.extra!.trainWithoutSample[0]).toMatchObject({
      file: 3,
      index: 0,
      rolloutId: 1,
      rolloutPosition: 0,
    });
    // rollout 0 has no train dump here: its samples are not listed as missing one
    expect(joins.extra!.samplesWithoutTrain).toEqual([]);
    const half = buildRunJoins([...dumps, train[0]]);
    expect(half.extra!.samplesWithoutTrain).toEqual([]);
  });

  it("gives each rollout the token-weighted mismatch, the trainer's tokens per DP rank, and verl's token staleness", () => {
    const joins = buildRunJoins([...dumps, sglang, ...trainer, ...train]);
    files.forEach((want, k) => {
      const figures = joins.rollouts[k].figures!;
      expect(figures.rolloutId).toBe(want.rollout_id);
      const m = figures.mismatch!;
      expect(m.tokens).toBe(want.loss_masked_tokens);
      expect(m.meanAbsDelta).toBeCloseTo(want.token_weighted.mean_abs_dlogp, 9);
      expect(m.maxAbsDelta).toBeCloseTo(want.token_weighted.max_abs_dlogp, 9);
      expect(m.meanRatio).toBeCloseTo(want.token_weighted.mean_ratio, 9);
      expect(m.outsideShare).toBeCloseTo(want.token_weighted['share_ratio_outside_0.5_2'], 9);
      expect(m.meanEntropy!).toBeCloseTo(want.token_weighted.mean_entropy, 9);
      expect(m.meanKl!).toBeCloseTo(want.token_weighted.mean_kl, 9);
      expect(
        figures.tokensPerDpRank.map((r) => [String(r.dpRank), r.tokens, r.totalLength]),
      ).toEqual(
        Object.entries(want.loss_masked_tokens_per_dp_rank).map(([rank, tokens]) => [
          rank,
          tokens,
          want.total_lengths_per_dp_rank[rank],
        ]),
      );
      const age = want.verl_behavior_age;
      expect(figures.staleness).toEqual({
        trainerVersion: want.trainer_weight_version,
        tokens: want.loss_masked_tokens,
        mean: age['training/off_policy/token_staleness/mean'],
        max: age['training/off_policy/token_staleness/max'],
        min: age['training/off_policy/token_staleness/min'],
        staleFraction: age['training/off_policy/token_staleness/stale_fraction'],
        staleSamples: 0,
      });
    });
    // per sample: the token staleness and the joined train sample's figures
    const sample16 = joins.extra!.samples.find((s) => s.rolloutId === 0 && s.rowId === 16)!;
    const want16 = files[0].per_sample[16];
    expect(sample16.train!.mismatch!.meanAbsDelta).toBeCloseTo(want16.mean_abs_dlogp, 9);
    expect(sample16.dpRank).toBe(want16.data_parallel_rank);
    expect(sample16.staleness).toMatchObject({ tokens: want16.loss_masked_tokens, mean: 0 });
  });

  it("ages tokens by the trainer's version: rollout 1's samples read against version 3 are one version old", () => {
    // the trainer as if it trained rollout 1 after version 3's sync completed
    const late = trainer.map((d) => structuredClone(d));
    for (const d of late) {
      const v3 = d.trainer!.syncs.find((s) => s.weightVersion === 3)!;
      d.trainer!.trainingStarts = d.trainer!.trainingStarts.map((s) =>
        s.rolloutId === 1 ? { ...s, startSec: v3.completeSec! + 1 } : s,
      );
    }
    const joins = buildRunJoins([...dumps, ...late, ...train]);
    const staleness = joins.rollouts[1].figures!.staleness!;
    expect(staleness).toMatchObject({
      trainerVersion: 3,
      mean: 1,
      max: 1,
      min: 1,
      staleFraction: 1,
    });
    expect(staleness.staleSamples).toBe(32);
  });
});
