import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { buildRunJoins } from '../../../src-main/core/run/build-run-joins';
import { runDigest } from '../../../src-main/core/run/run-digest';
import { FIXTURES } from '../../support/fixtures';
import { EXPECTED_EXTRA, RUN } from '../../support/run-extra-expected';

// run_extra's train_0.pt re-saved in slime's unversioned layout, one file per rank
// (tests/fixtures/train_variants/make-rank-dumps.py): in a run, the two ranks' files join
// rollout 0's samples as the one format_version 2 file does (expected_extra.json "train").
const digestOf = (dir: string, path: string) =>
  runDigest(openTraceFile([bytesSource(path, readFileSync(join(dir, path)))]));
const RANKS = join(FIXTURES, 'train_variants/run_ranks');
const want = EXPECTED_EXTRA.train.files['train_0.pt'];

describe('per-rank train dumps of one rollout in a run', () => {
  const rollout = digestOf(RUN, 'rollout_0.pt');
  const ranks = ['train_0_0.pt', 'train_0_1.pt'].map((p) => digestOf(RANKS, p));

  it('each is a train file of its rank’s samples; together they join every sample of rollout 0', () => {
    expect(ranks.map((d) => d.role)).toEqual(['train', 'train']);
    const joins = buildRunJoins([rollout, ...ranks]);
    expect(joins.counts.train).toEqual({
      samples: want.samples,
      joinedSamples: want.joined_by_rollout_position,
      unjoinedSamples: 0,
    });
    expect(joins.extra!.trainWithoutSample).toEqual([]);
    expect(joins.extra!.samplesWithoutTrain).toEqual([]);
  });

  it("gives each joined sample the mismatch figures of slime's format 2 dump, to 1e-9", () => {
    const joins = buildRunJoins([rollout, ...ranks]);
    for (const w of want.per_sample) {
      const sample = joins.extra!.samples.find(
        (s) => s.rolloutId === 0 && s.rowId === w.rollout_position,
      )!;
      const mismatch = sample.train!.mismatch!;
      expect(mismatch.tokens).toBe(w.loss_masked_tokens);
      expect(mismatch.meanAbsDelta).toBeCloseTo(w.mean_abs_dlogp, 9);
      expect(mismatch.maxAbsDelta).toBeCloseTo(w.max_abs_dlogp, 9);
      expect(mismatch.meanRatio).toBeCloseTo(w.mean_ratio, 9);
    }
  });
});
