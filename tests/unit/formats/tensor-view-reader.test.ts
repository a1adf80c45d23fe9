import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { readTrainDump } from '../../../src-main/core/formats/slime-train/read-train-dump';
import { sampleFigures } from '../../../src-main/core/formats/slime-train/train-sample-figures';
import { readTensorValues } from '../../../src-main/core/formats/torch/read-tensor-values';
import { TensorViewReader } from '../../../src-main/core/formats/torch/tensor-view-reader';
import type { PyValue, TensorRef } from '../../../src-main/core/model/py-value';
import { RUN_EXTRA } from '../../support/run-extra-expected';

// Tensors read as typed arrays over reused buffers (the train dump's figures: issue 44's
// speed) must hold exactly what the value-by-value decoder reads, from a file, from bytes in
// memory, and from bytes at an offset a typed array cannot start at.
const path = join(RUN_EXTRA, 'train', 'train_0.pt');
const bytes = new Uint8Array(readFileSync(path));
const tensorsOf = (sample: Record<string, PyValue>) =>
  Object.entries(sample).filter(
    (e): e is [string, TensorRef] => (e[1] as TensorRef | null)?.$kind === 'tensor',
  );
const plain = (values: ArrayLike<number>) => Array.from(values);

describe("a tensor's values as a typed array over a reused buffer", () => {
  it("every tensor of train_0.pt's samples equals the decoder's values, from the file", () => {
    const source = openFileSource(path);
    try {
      const views = new TensorViewReader(source);
      const { samples } = readTrainDump(source);
      let read = 0;
      for (const sample of samples)
        for (const [field, tensor] of tensorsOf(sample)) {
          const view = views.read(0, tensor);
          expect(plain(view), field).toEqual(readTensorValues(source, tensor));
          if (tensor.dtype === 'float32') expect(view).toBeInstanceOf(Float32Array);
          if (tensor.dtype === 'int32') expect(view).toBeInstanceOf(Int32Array);
          read++;
        }
      // 32 samples, each its per-token tensors and scalars
      expect(read).toBeGreaterThan(32 * 9);
    } finally {
      source.close();
    }
  });

  it('reads into the same buffer each time in a slot; another slot keeps its values', () => {
    const source = openFileSource(path);
    try {
      const views = new TensorViewReader(source);
      const [first, second] = readTrainDump(source).samples;
      const a = first.log_probs as TensorRef;
      const b = second.log_probs as TensorRef;
      const kept = views.read(1, a);
      const want = plain(kept);
      const one = views.read(0, b) as Float32Array;
      const again = views.read(0, a) as Float32Array;
      expect(again.buffer).toBe(one.buffer);
      expect(plain(again)).toEqual(want);
      expect(plain(kept)).toEqual(want);
    } finally {
      source.close();
    }
  });

  it('bytes in memory at an odd offset are copied aligned; at an even one viewed as they are', () => {
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const odd = bytesSource('train_0.pt', shifted.subarray(1));
    const even = bytesSource('train_0.pt', bytes);
    const sample = readTrainDump(even).samples[5];
    const tensor = sample.rollout_log_probs as TensorRef;
    const want = readTensorValues(even, tensor);
    const fromOdd = new TensorViewReader(odd).read(0, tensor) as Float32Array;
    expect(fromOdd).toBeInstanceOf(Float32Array);
    expect(plain(fromOdd)).toEqual(want);
    const fromEven = new TensorViewReader(even).read(0, tensor) as Float32Array;
    expect(fromEven.buffer).toBe(bytes.buffer);
    expect(plain(fromEven)).toEqual(want);
  });

  it('stops at `limit` values', () => {
    const source = bytesSource('train_0.pt', bytes);
    const tensor = readTrainDump(source).samples[0].log_probs as TensorRef;
    expect(plain(new TensorViewReader(source).read(0, tensor, 7))).toEqual(
      readTensorValues(source, tensor, 7),
    );
  });
});

describe("a sample's figures in one walk", () => {
  it('counts masked tokens only, skips non-finite values, each array to its own length', () => {
    const mask = new Int32Array([1, 0, 1, 1]); // token 4 (past the mask) counts
    const trainer = new Float32Array([-1, -9, -2, -0.25, -1]);
    const server = new Float32Array([-1.5, 0, -1, NaN, -1]);
    const entropy = [0.5, 100, 1.5, 2, 3, 7]; // longer than the pairs: all its masked values
    const figures = sampleFigures(mask, trainer, server, entropy, null);
    // deltas of the kept tokens 0, 2, 4: 0.5, -1, 0 (token 3 is NaN)
    expect(figures.mismatch!.tokens).toBe(3);
    expect(figures.mismatch!.meanAbsDelta).toBeCloseTo(0.5, 12);
    expect(figures.mismatch!.maxAbsDelta).toBe(1);
    expect(figures.mismatch!.meanRatio).toBeCloseTo((Math.exp(0.5) + Math.exp(-1) + 1) / 3, 12);
    // exp(-1) = 0.37 is below 0.5; exp(0.5) = 1.65 is inside
    expect(figures.mismatch!.outsideShare).toBeCloseTo(1 / 3, 12);
    expect(figures.meanEntropy).toBeCloseTo((0.5 + 1.5 + 2 + 3 + 7) / 5, 12);
    expect(figures.meanKl).toBeNull();
  });

  it('has no mismatch without both log-prob arrays, or when the mask keeps no token', () => {
    expect(sampleFigures(null, [1, 2], null, null, null).mismatch).toBeNull();
    expect(sampleFigures([0, 0], [1, 2], [1, 2], [3, 4], null)).toEqual({
      mismatch: null,
      meanEntropy: null,
      meanKl: null,
    });
  });
});
