import type { ByteSource } from '../../bytes/byte-source';
import type { TensorRef } from '../../model/py-value';
import { decodeNumbers } from '../../model/dtype-numbers';
import { readTensorBytes } from './read-tensor-values';

type NumberView = Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint8Array;
type ViewClass = {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): NumberView;
  readonly BYTES_PER_ELEMENT: number;
};

/** dtypes whose bytes are a typed array as they are (on a little-endian machine). */
const VIEWS = new Map<string, ViewClass>([
  ['float64', Float64Array],
  ['float32', Float32Array],
  ['int32', Int32Array],
  ['int16', Int16Array],
  ['int8', Int8Array],
  ['uint8', Uint8Array],
  ['bool', Uint8Array],
]);

/** torch writes little-endian; a typed array reads in the machine's order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Reads tensors' values as typed arrays over buffers it keeps, one per slot: a reader walking
 * every sample's per-token tensors (4,096 samples x 5 tensors x 8k tokens) then neither
 * allocates per tensor nor turns 170M values into JS numbers one by one, which took most of a
 * train dump's open. A view stays valid until its slot is read into again. dtypes a typed
 * array cannot hold as they are (float16, bfloat16, int64) come decoded as numbers.
 */
export class TensorViewReader {
  private readonly slots: Uint8Array[] = [];

  constructor(private readonly source: ByteSource) {}

  /** Tensor `tensor`'s values (flattened, in storage order), at most `limit`, in slot `slot`. */
  read(slot: number, tensor: TensorRef, limit = Number.MAX_SAFE_INTEGER): ArrayLike<number> {
    const View = LITTLE_ENDIAN ? VIEWS.get(tensor.dtype) : undefined;
    const count = Math.min(
      limit,
      tensor.shape.reduce((n, d) => n * d, 1),
    );
    // sized before the read: a source reading a file reads into it, allocating nothing
    const scratch = this.grow(slot, count * (View?.BYTES_PER_ELEMENT ?? 8));
    const { bytes } = readTensorBytes(this.source, tensor, count, scratch);
    if (View === undefined) return decodeNumbers(bytes, tensor.dtype, count);
    const n = Math.min(count, Math.floor(bytes.length / View.BYTES_PER_ELEMENT));
    // our slot, or bytes the source already holds in memory (a view of them, no copy)
    if (bytes.byteOffset % View.BYTES_PER_ELEMENT === 0)
      return new View(bytes.buffer, bytes.byteOffset, n);
    // held at an offset a typed array cannot start at: copied, aligned, into the slot
    scratch.set(bytes);
    return new View(scratch.buffer, scratch.byteOffset, n);
  }

  /** A slot's buffer, at least `length` bytes long. */
  private grow(slot: number, length: number): Uint8Array {
    const have = this.slots[slot];
    if (have !== undefined && have.length >= length) return have;
    // doubling: a dump whose samples grow in length does not reallocate at each one
    const next = new Uint8Array(Math.max(length, (have?.length ?? 0) * 2, 4096));
    this.slots[slot] = next;
    return next;
  }
}
