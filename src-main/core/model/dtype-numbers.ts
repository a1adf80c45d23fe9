/** Bytes one value of a dtype takes (torch's and numpy's names alike), 0 for one not known. */
const DTYPE_SIZES: Record<string, number> = {
  float64: 8,
  float32: 4,
  float16: 2,
  bfloat16: 2,
  int64: 8,
  int32: 4,
  int16: 2,
  int8: 1,
  uint8: 1,
  bool: 1,
};

export function dtypeSize(dtype: string): number {
  return DTYPE_SIZES[dtype] ?? 0;
}

/**
 * The first `count` values of `dtype` in `bytes`, little-endian as torch and numpy write them
 * on the machines that train (fewer when the bytes end first); NaN for each value of a dtype
 * not known here.
 */
export function decodeNumbers(bytes: Uint8Array, dtype: string, count: number): number[] {
  const size = dtypeSize(dtype) || 1;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.min(count, Math.floor(bytes.length / size));
  const out: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const o = i * size;
    switch (dtype) {
      case 'float64':
        out[i] = view.getFloat64(o, true);
        break;
      case 'float32':
        out[i] = view.getFloat32(o, true);
        break;
      case 'int64':
        out[i] = Number(view.getBigInt64(o, true));
        break;
      case 'int32':
        out[i] = view.getInt32(o, true);
        break;
      case 'int16':
        out[i] = view.getInt16(o, true);
        break;
      case 'int8':
        out[i] = view.getInt8(o);
        break;
      case 'uint8':
      case 'bool':
        out[i] = view.getUint8(o);
        break;
      case 'float16':
        out[i] = halfToFloat(view.getUint16(o, true));
        break;
      case 'bfloat16':
        // the top half of a float32
        out[i] = new Float32Array(new Uint32Array([view.getUint16(o, true) << 16]).buffer)[0];
        break;
      default:
        out[i] = NaN;
    }
  }
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
