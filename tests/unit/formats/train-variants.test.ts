import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { FIXTURES, fixtureSource, readJson } from '../../support/fixtures';

// slime train dumps in shapes run_extra/'s do not show (tests/fixtures/train_variants/README.md):
// bf16 and float16 tensors, lists instead of tensors, one DP shard of several, no partition.
// The figures are torch's, in float64 of the stored values (make-train-variants.py).
const DIR = join(FIXTURES, 'train_variants');

interface Want {
  rollout_id: number;
  samples: {
    rollout_position: number | null;
    sample_index: number;
    data_parallel_rank: number;
    response_length: number;
    tokens: number;
    mean_abs_delta: number;
    max_abs_delta: number;
    mean_ratio: number;
    outside_share: number;
    mean_entropy?: number;
  }[];
}
const EXPECTED = readJson<Record<string, Want>>(join(DIR, 'train_variants.expected.json'));
const open = (name: string) => openTraceFile([fixtureSource(join(DIR, name))]);

describe('slime train dumps of other shapes', () => {
  for (const [name, want] of Object.entries(EXPECTED)) {
    it(`${name}: opens as a train dump of rollout ${want.rollout_id}, each sample's figures to 1e-9`, () => {
      const trace = open(name);
      expect(trace.summary.format).toBe('slime-train');
      expect(trace.summary.rolloutId).toBe(want.rollout_id);
      const train = trace.runRecords!.train!;
      expect(train.samples).toHaveLength(want.samples.length);
      want.samples.forEach((w, k) => {
        const got = train.samples[k];
        expect(got.rolloutPosition).toBe(w.rollout_position);
        expect(got.sampleIndex).toBe(w.sample_index);
        expect(got.dpRank).toBe(w.data_parallel_rank);
        expect(got.responseLength).toBe(w.response_length);
        expect(got.mismatch!.tokens).toBe(w.tokens);
        expect(got.mismatch!.meanAbsDelta).toBeCloseTo(w.mean_abs_delta, 9);
        expect(got.mismatch!.maxAbsDelta).toBeCloseTo(w.max_abs_delta, 9);
        expect(got.mismatch!.meanRatio).toBeCloseTo(w.mean_ratio, 9);
        expect(got.mismatch!.outsideShare).toBeCloseTo(w.outside_share, 9);
        if (w.mean_entropy === undefined) expect(got.meanEntropy).toBeNull();
        else expect(got.meanEntropy).toBeCloseTo(w.mean_entropy, 9);
      });
    });
  }

  it('reads bf16 and float16 tensors lazily as their stored values', () => {
    const trace = open('train_bf16.pt');
    const withBytes = <T>(use: (bytes: ByteSource) => T) =>
      use(fixtureSource(join(DIR, 'train_bf16.pt')));
    const sample = trace.samples.read(1, withBytes)!;
    const read = (field: string) => trace.format.readLazyValues!(sample, [field], withBytes, 10);
    // -1.1 in bf16 is -1.1015625; 0.3 in float16 is 0.300048828125
    expect(read('log_probs')).toEqual({
      length: 3,
      values: [-0.30078125, -0.69921875, -1.1015625],
    });
    expect(read('entropy').values[0]).toBe(0.300048828125);
    expect(read('values')).toEqual({ length: 3, values: [0, 0, 0] });
  });

  it('keeps a writer without dp_shards, and one shard of several with its layout', () => {
    expect(open('train_bf16.pt').runRecords!.train!.dpShards).toEqual([]);
    expect(open('train_one_shard_lists.pt').runRecords!.train!.dpShards).toEqual([
      { dpRank: 1, samples: 2, microBatches: 1 },
    ]);
  });

  it('is sniffed as a train dump without rollout_position (no partition), not as a rollout dump', () => {
    const trace = open('train_no_position.pt');
    expect(trace.summary.format).toBe('slime-train');
    expect(trace.runRecords!.train!.dpShards).toEqual([{ dpRank: 0, samples: 2, microBatches: 1 }]);
  });

  it("reads the unversioned per-rank dump (rollout_data's columns) as that rank's samples", () => {
    const trace = open('train_4_1.pt');
    expect(trace.summary.format).toBe('slime-train');
    expect(trace.summary.notices).toContain(
      "An unversioned dump (slime before format_version 2): rank 1's samples only, one file per rank; their data-parallel rank is not in the file.",
    );
    expect(trace.runRecords!.train!.dpShards).toEqual([]);
    const withBytes = <T>(use: (bytes: ByteSource) => T) =>
      use(fixtureSource(join(DIR, 'train_4_1.pt')));
    const sample = trace.samples.read(1, withBytes)!;
    expect(trace.format.readLazyValues!(sample, 'log_probs', withBytes, 10)).toEqual({
      length: 2,
      values: [-2, -0.5],
    });
  });
});
