import type { AttrValue, Attrs } from '../model/row';
import { pyKind, type NdArrayRef, type PyValue } from '../model/py-value';
import { decodeNumbers, decodesDtype } from '../model/dtype-numbers';

const MAX_DEPTH = 32;
/** numpy arrays of up to this many numbers show them (a score per step, an image's grid) */
const ARRAY_VALUES_SHOWN = 64;

/**
 * A sample's fields as display-ready JSON. Token-sized lists stay byte ranges: the panel shows
 * their length and loads values when the user asks. Tensors show dtype and shape; objects the
 * pickle could not interpret show module.name and their state, never anything runnable.
 */
export function sampleToDetails(sample: PyValue): Attrs {
  const json = toDisplayJson(sample, 0);
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : { value: json };
}

export function toDisplayJson(value: PyValue | undefined, depth: number): AttrValue {
  if (value === undefined || value === null) return null;
  if (depth > MAX_DEPTH) return '…';
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'string':
    case 'boolean':
      return value;
  }
  if (value instanceof Uint8Array) return { $bytes: value.byteLength };
  if (Array.isArray(value)) return value.map((item) => toDisplayJson(item, depth + 1));
  // a dict with a "$kind" key is shown as the dict it is
  switch (pyKind(value)) {
    case 'lazy-list': {
      const list = value as { length: number; elemType: string };
      return { $lazy: true, length: list.length, elemType: list.elemType };
    }
    case 'tensor': {
      const tensor = value as { dtype: string; shape: number[] };
      return { $tensor: true, dtype: tensor.dtype, shape: tensor.shape };
    }
    case 'ndarray': {
      const array = value as NdArrayRef;
      const count = array.shape.reduce((n, d) => n * d, 1);
      // a small array's numbers came with the sample (slime's prm_scores): shown, not a shape
      // alone; a larger one's stay described
      const values =
        array.data !== undefined && count <= ARRAY_VALUES_SHOWN && decodesDtype(array.dtype)
          ? decodeNumbers(array.data, array.dtype, count)
          : undefined;
      return {
        $ndarray: true,
        dtype: array.dtype,
        shape: array.shape,
        ...(values ? { values: values.map((v) => (Number.isFinite(v) ? v : String(v))) } : {}),
      };
    }
    case 'set':
      return (value as { items: PyValue[] }).items.map((item) => toDisplayJson(item, depth + 1));
    case 'complex': {
      const c = value as { real: number; imag: number };
      return `${c.real}${c.imag < 0 ? '-' : '+'}${Math.abs(c.imag)}j`;
    }
    case 'object': {
      const object = value as { module: string; name: string; args: PyValue[]; state?: PyValue };
      return {
        $object: `${object.module}.${object.name}`,
        args: object.args.map((arg) => toDisplayJson(arg, depth + 1)),
        state: toDisplayJson(object.state, depth + 1),
      };
    }
    case 'class': {
      const ref = value as { module: string; name: string };
      return { $class: `${ref.module}.${ref.name}` };
    }
  }
  const out: Attrs = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: toDisplayJson((value as Record<string, PyValue>)[key], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
