import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { TensorRef } from '../../model/py-value';
import { decodeNumbers } from '../../model/dtype-numbers';
import { storageStart } from './read-torch-archive';
import { dtypeItemSize } from './storage-types';

/** A tensor's values (flattened, in storage order from its offset), at most `limit`. */
export function readTensorValues(
  source: ByteSource,
  tensor: TensorRef,
  limit = 1_000_000,
): number[] {
  const { bytes, count } = readTensorBytes(source, tensor, limit);
  return decodeNumbers(bytes, tensor.dtype, count);
}

/**
 * The bytes of a tensor's first `limit` values (flattened, in storage order from its offset),
 * read into `into` when the source can (a caller walking thousands of tensors then allocates
 * no buffer per tensor). The tensor's reach is checked against its storage first.
 */
export function readTensorBytes(
  source: ByteSource,
  tensor: TensorRef,
  limit: number,
  into?: Uint8Array,
): { bytes: Uint8Array; count: number } {
  const itemSize = dtypeItemSize(tensor.dtype);
  const count = Math.min(
    limit,
    tensor.shape.reduce((n, d) => n * d, 1),
  );
  const at = storageStart(source, tensor.storage);
  if (at < 0)
    throw new FormatError(
      'torch/storage-compressed',
      'tensor values of a compressed archive entry are not available',
    );
  checkTensorBounds(tensor, itemSize, at);
  const start = at + tensor.storageOffset * itemSize;
  return { bytes: source.read(start, count * itemSize, into), count };
}

/**
 * Every element the tensor's offset, shape and strides reach lies inside its storage: a
 * tensor pointing before or past its storage would otherwise show other bytes of the file.
 */
function checkTensorBounds(tensor: TensorRef, itemSize: number, at: number): void {
  const storageElements = Math.floor(tensor.storage.byteLength / itemSize);
  const fail = (what: string): never => {
    throw new FormatError(
      'torch/tensor-out-of-bounds',
      `a tensor ${what} (storage ${tensor.storage.key} holds ${storageElements} elements)`,
      at,
    );
  };
  const offset = tensor.storageOffset;
  if (!Number.isSafeInteger(offset) || offset < 0) fail(`has storage offset ${offset}`);
  const { shape, stride } = tensor;
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0)) fail(`has shape ${shape.join('x')}`);
  if (shape.some((d) => d === 0)) return; // no elements
  let last = offset;
  let count = 1;
  for (let i = 0; i < shape.length; i++) {
    const step = stride.length === shape.length ? stride[i] : 1;
    if (!Number.isSafeInteger(step) || step < 0) fail(`has stride ${step}`);
    last += (shape[i] - 1) * step;
    count *= shape[i];
  }
  // values are read in storage order from the offset: that range must fit too
  if (!(last < storageElements) || !(offset + count <= storageElements))
    fail(`reaches past its storage (offset ${offset}, shape ${shape.join('x')})`);
}
