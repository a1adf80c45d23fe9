/**
 * Reading one value of a dtype (torch's and numpy's names alike) at a byte offset, little-endian
 * as torch and numpy write them on the machines that train.
 */
const READERS = new Map<string, (view: DataView, at: number) => number>([
  ['float64', (view, at) => view.getFloat64(at, true)],
  ['float32', (view, at) => view.getFloat32(at, true)],
  ['float16', (view, at) => halfToFloat(view.getUint16(at, true))],
  // the top half of a float32
  [
    'bfloat16',
    (view, at) => new Float32Array(new Uint32Array([view.getUint16(at, true) << 16]).buffer)[0],
  ],
  ['int64', (view, at) => Number(view.getBigInt64(at, true))],
  ['int32', (view, at) => view.getInt32(at, true)],
  ['int16', (view, at) => view.getInt16(at, true)],
  ['int8', (view, at) => view.getInt8(at)],
  ['uint8', (view, at) => view.getUint8(at)],
  ['bool', (view, at) => view.getUint8(at)],
]);

/** Bytes one value of a dtype takes (complex ones are sized, not read). */
const SIZES = new Map<string, number>([
  ['float64', 8],
  ['float32', 4],
  ['float16', 2],
  ['bfloat16', 2],
  ['int64', 8],
  ['int32', 4],
  ['int16', 2],
  ['int8', 1],
  ['uint8', 1],
  ['bool', 1],
  ['complex64', 8],
  ['complex128', 16],
]);

/** Bytes one value of `dtype` takes, 0 for a dtype not known here. */
export function dtypeSize(dtype: string): number {
  return SIZES.get(dtype) ?? 0;
}

/** Whether decodeNumbers reads values of `dtype` (else it gives NaN for each). */
export function decodesDtype(dtype: string): boolean {
  return READERS.has(dtype);
}

/**
 * The first `count` values of `dtype` in `bytes` (fewer when the bytes end first); NaN for each
 * value of a dtype not read here.
 */
export function decodeNumbers(bytes: Uint8Array, dtype: string, count: number): number[] {
  const size = dtypeSize(dtype) || 1;
  const read = READERS.get(dtype);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.min(count, Math.floor(bytes.length / size));
  const out: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = read ? read(view, i * size) : NaN;
  return out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}
