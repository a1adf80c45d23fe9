import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { findFormat } from '../../../src-main/core/formats/registry';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import type { TensorRef } from '../../../src-main/core/model/py-value';
import { EXPECTED_EXTRA, RUN, RUN_EXTRA } from '../../support/run-extra-expected';

// slime's train-side dumps of run_extra (README "Train"; expected_extra.json "train"), written
// by slime's own save_debug_train_data.
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(RUN_EXTRA, 'train', name)));
const open = (name: string, bytes = bytesOf(name)) => openTraceFile([bytesSource(name, bytes)]);

/** The file with `from` (bytes, found once) replaced by `to` of the same length. */
function patched(bytes: Uint8Array, from: number[], to: number[]): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes);
  const hits: number[] = [];
  for (let i = 0; i + from.length <= copy.length; i++) {
    if (from.every((b, k) => copy[i + k] === b)) hits.push(i);
  }
  expect(hits).toHaveLength(1);
  copy.set(to, hits[0]);
  return copy;
}
const ascii = (text: string) => [...new TextEncoder().encode(text)];

describe("slime's train-side dump", () => {
  it('is told from a rollout dump by its content, not its name', () => {
    const head = bytesOf('train_0.pt').subarray(0, 64 * 1024);
    expect(findFormat(head, 'anything.bin', head.length)?.id).toBe('slime-train');
    const rollout = new Uint8Array(readFileSync(join(RUN, 'rollout_0.pt'))).subarray(0, 65536);
    expect(findFormat(rollout, 'train_0.pt', rollout.length)?.id).toBe('slime');
  });

  for (const name of ['train_0.pt', 'train_1.pt']) {
    const expected = EXPECTED_EXTRA.train.files[name];
    it(`${name}: ${expected.samples} samples of rollout ${expected.rollout_id}, each sample's mismatch to 1e-9`, () => {
      const trace = open(name);
      expect(trace.summary.format).toBe('slime-train');
      expect(trace.summary.samples).toBe(expected.samples);
      expect(trace.summary.rolloutId).toBe(expected.rollout_id);
      const train = trace.runRecords!.train!;
      expect(train.samples).toHaveLength(expected.per_sample.length);
      expected.per_sample.forEach((want, k) => {
        const got = train.samples[k];
        expect(got.rolloutPosition).toBe(want.rollout_position);
        expect(got.sampleIndex).toBe(want.sample_index);
        expect(got.dpRank).toBe(want.data_parallel_rank);
        expect(got.responseLength).toBe(want.tokens);
        expect(got.mismatch!.tokens).toBe(want.loss_masked_tokens);
        expect(got.mismatch!.meanAbsDelta).toBeCloseTo(want.mean_abs_dlogp, 9);
        expect(got.mismatch!.maxAbsDelta).toBeCloseTo(want.max_abs_dlogp, 9);
        expect(got.mismatch!.meanRatio).toBeCloseTo(want.mean_ratio, 9);
        expect(got.mismatch!.outsideShare).toBeCloseTo(want['share_ratio_outside_0.5_2'], 9);
      });
      const outside = train.samples
        .filter((s) => s.mismatch!.outsideShare > 0)
        .map((s) => s.rolloutPosition);
      expect(outside).toEqual(expected['samples_with_ratio_outside_0.5_2']);
      expect(train.dpShards.map((s) => [s.dpRank, s.samples, s.microBatches])).toEqual(
        expected.dp_shards.map((s) => [s.data_parallel_rank, s.samples, s.micro_batches]),
      );
    });
  }

  it("keeps tensors as byte ranges: a sample's per-token values are read when asked", () => {
    const trace = open('train_0.pt');
    const sample = trace.samples.read(16, () => {
      throw new Error('the samples are kept');
    }) as Record<string, TensorRef>;
    expect(sample.log_probs.$kind).toBe('tensor');
    const source = bytesSource('train_0.pt', bytesOf('train_0.pt'));
    const read = (field: string) =>
      trace.format.readLazyValues!(sample, [field], (use) => use(source), 1_000_000);
    const trainer = read('log_probs');
    const server = read('rollout_log_probs');
    expect(trainer.length).toBe(256);
    const deltas = trainer.values.map((v, k) => Math.abs(v - server.values[k]));
    expect(Math.max(...deltas)).toBeCloseTo(
      EXPECTED_EXTRA.train.files['train_0.pt'].per_sample[16].max_abs_dlogp,
      9,
    );
  });

  it('refuses a format_version it does not know, naming the file', () => {
    const bytes = patched(
      bytesOf('train_0.pt'),
      [...ascii('format_version'), 0x71, 0x01, 0x4b, 0x02],
      [...ascii('format_version'), 0x71, 0x01, 0x4b, 0x07],
    );
    const error = (() => {
      try {
        open('train_0.pt', bytes);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).code).toBe('slime-train/unknown-version');
    expect((error as FormatError).message).toContain('train_0.pt');
    expect((error as FormatError).message).toContain('format_version 7');
  });

  it('names a sample whose tensors disagree with response_lengths; the rest opens', () => {
    // sample 3's response_lengths (BINGET of the memoized key, then BININT1 136) made 135
    const bytes = patched(bytesOf('train_0.pt'), [0x68, 0x17, 0x4b, 136], [0x68, 0x17, 0x4b, 135]);
    const trace = open('train_0.pt', bytes);
    const notice = trace.summary.notices.find((n) => n.startsWith('slime-train/length-mismatch'));
    expect(notice).toContain('train_0.pt: sample 3 (rollout_position 3)');
    expect(notice).toContain('holds 136 values, response_lengths says 135');
    const samples = trace.runRecords!.train!.samples;
    expect(samples[3].mismatch).toBeNull();
    expect(samples.filter((s) => s.mismatch !== null)).toHaveLength(31);
  });
});
