import { describe, expect, it } from 'vitest';
import { decodeNumbers, decodesDtype, dtypeSize } from '../../../src-main/core/model/dtype-numbers';
import { dtypeItemSize, storageDtype } from '../../../src-main/core/formats/torch/storage-types';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('numbers of a dtype, little-endian (torch storages, numpy arrays)', () => {
  it('reads each dtype torch and numpy write', () => {
    expect(decodeNumbers(new Uint8Array(new Float32Array([1.5, -2]).buffer), 'float32', 2)).toEqual(
      [1.5, -2],
    );
    expect(decodeNumbers(new Uint8Array(new Float64Array([0.1]).buffer), 'float64', 1)).toEqual([
      0.1,
    ]);
    expect(
      decodeNumbers(new Uint8Array(new BigInt64Array([2n ** 40n, -3n]).buffer), 'int64', 2),
    ).toEqual([2 ** 40, -3]);
    expect(decodeNumbers(new Uint8Array(new Int32Array([-7]).buffer), 'int32', 1)).toEqual([-7]);
    expect(decodeNumbers(bytes(0xff, 0xff), 'int16', 1)).toEqual([-1]);
    expect(decodeNumbers(bytes(0xff, 0x01), 'int8', 2)).toEqual([-1, 1]);
    expect(decodeNumbers(bytes(0xff, 0x01), 'uint8', 2)).toEqual([255, 1]);
    expect(decodeNumbers(bytes(1, 0), 'bool', 2)).toEqual([1, 0]);
    // half: 1.0 (0x3c00), -2.0 (0xc000), infinity (0x7c00); bfloat16: 1.0 (0x3f80), -1.5 (0xbfc0)
    expect(decodeNumbers(bytes(0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7c), 'float16', 3)).toEqual([
      1,
      -2,
      Infinity,
    ]);
    expect(decodeNumbers(bytes(0x80, 0x3f, 0xc0, 0xbf), 'bfloat16', 2)).toEqual([1, -1.5]);
  });

  it('no more values than the bytes hold; NaN for a dtype not known', () => {
    expect(decodeNumbers(bytes(0, 0, 0x80, 0x3f, 0), 'float32', 5)).toEqual([1]);
    // complex values are sized as torch stores them (8 bytes a complex64), not read
    expect(decodeNumbers(new Uint8Array(16), 'complex64', 2)).toEqual([NaN, NaN]);
    expect(decodeNumbers(bytes(1, 2), 'mystery', 2)).toEqual([NaN, NaN]);
    expect(dtypeSize('complex64')).toBe(8);
    expect(dtypeSize('bfloat16')).toBe(2);
    expect(dtypeSize('mystery')).toBe(0);
    expect([decodesDtype('bfloat16'), decodesDtype('complex64'), decodesDtype('toString')]).toEqual(
      [true, false, false],
    );
  });

  it("a torch storage's dtype and element size from the same table; a class a pickle made up reads as bytes", () => {
    expect(storageDtype('torch.ComplexDoubleStorage')).toEqual({
      dtype: 'complex128',
      itemSize: 16,
    });
    expect(storageDtype('torch.BFloat16Storage')).toEqual({ dtype: 'bfloat16', itemSize: 2 });
    expect(storageDtype('torch.constructor')).toEqual({ dtype: 'uint8', itemSize: 1 });
    expect(dtypeItemSize('mystery')).toBe(1);
  });
});
