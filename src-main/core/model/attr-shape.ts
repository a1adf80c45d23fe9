import type { Attrs } from './row';

/** An attrs object's shape: its keys in order, and which of them hold numbers. */
export interface AttrShape {
  readonly keys: readonly string[];
  readonly numeric: readonly boolean[];
}

/**
 * Whether `attrs` has exactly the shape's keys, in its order, numbers where it has them: an
 * object that fits can be kept as the shape's columns and made again the same (packed items'
 * attrs, a Chrome trace's args).
 */
export function fitsAttrShape(shape: AttrShape, attrs: Attrs): boolean {
  const { keys, numeric } = shape;
  let k = 0;
  for (const key in attrs) {
    if (!Object.hasOwn(attrs, key)) continue;
    if (k >= keys.length || keys[k] !== key || numeric[k] !== (typeof attrs[key] === 'number'))
      return false;
    k++;
  }
  return k === keys.length;
}

/**
 * Attrs a format keeps as columns (Chrome's ArgsColumns) rather than as an object: their shape,
 * one object per shape (kept by identity), and where their values are, numbers and the other
 * values each in key order. A packer given these copies the values as they are, where an
 * object made of them was read key by key again (a GPU rank's every slice had one).
 */
export interface AttrColumns {
  shape: AttrShape;
  numbers: Float64Array;
  numbersAt: number;
  refs: readonly unknown[];
  refsAt: number;
}
