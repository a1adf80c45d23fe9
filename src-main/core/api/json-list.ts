/**
 * A list of JSON values packed for a shared report (issue 47): each value's UTF-8 JSON one after
 * another in one byte array, and where each ends. It travels as two typed arrays (a typed frame,
 * typed-json.ts), so the page parses no value until it is asked for: a 10,000-row timeline
 * draws after parsing the rows on screen, not 20 MB of rows as one JSON text (1.5-2 s of the
 * report's first draw under load). Ints beyond 2^53 travel as typed-json's `{"$bigint"}`.
 */
import { bigIntBack, bigIntOut } from './typed-json';

/** `T`: what each value is (a type only: the bytes say nothing of it) */
export interface JsonList<T> {
  bytes: Uint8Array;
  /** where each value's bytes end (the next one's start) */
  ends: Int32Array;
  /** (never set: keeps `T` in the type) */
  readonly of?: T;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function packJsonList<T>(values: readonly T[]): JsonList<T> {
  let bytes = new Uint8Array(64 * 1024);
  let used = 0;
  const ends = new Int32Array(values.length);
  values.forEach((value, i) => {
    const text = jsonOf(value);
    // UTF-8 takes at most 3 bytes for each UTF-16 unit
    if (used + text.length * 3 > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, used + text.length * 3));
      grown.set(bytes.subarray(0, used));
      bytes = grown;
    }
    used += encoder.encodeInto(text, bytes.subarray(used)).written;
    ends[i] = used;
  });
  return { bytes: bytes.slice(0, used), ends };
}

/** Plain JSON.stringify (several times faster than with a replacer) unless a bigint needs one. */
function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, bigIntOut) ?? 'null';
  }
}

export function jsonListLength(list: JsonList<unknown>): number {
  return list.ends.length;
}

/** Value `index` of the list, parsed now (a new object each call). */
export function jsonListAt<T>(list: JsonList<T>, index: number): T {
  if (!(index >= 0 && index < list.ends.length)) throw new RangeError(`no value ${index}`);
  const start = index === 0 ? 0 : list.ends[index - 1];
  const text = decoder.decode(list.bytes.subarray(start, list.ends[index]));
  return JSON.parse(text, text.includes('"$bigint"') ? bigIntBack : undefined) as T;
}

export interface JsonListReader<T> {
  length: number;
  at(index: number): T;
}

/** The list's values, each parsed on its first ask and kept (the same object every ask). */
export function jsonListReader<T>(list: JsonList<T>): JsonListReader<T> {
  const parsed: (T | undefined)[] = new Array<T | undefined>(list.ends.length);
  return {
    length: list.ends.length,
    at: (index) => (parsed[index] ??= jsonListAt(list, index)),
  };
}
