/**
 * Answers with typed arrays over HTTP (serve mode and the renderer's HTTP host): JSON where no
 * answer holds one, else a _typed frame_: the JSON with each typed array a placeholder, then
 * the arrays' own bytes. A 100k-row order or the row facts (2.4 MB of columns) then cross as
 * their bytes, written from the arrays themselves and read back as views of the received
 * buffer: as base64 inside JSON they were a third larger, and encoding, the string's UTF-8,
 * decoding and parsing cost 60-100 ms per answer on a 2-core machine.
 *
 * Frame: a 32-bit little-endian length, the JSON of that many bytes (UTF-8), zeros to a
 * multiple of 8, then each array's bytes, each followed by zeros to a multiple of 8 (so each
 * reads back as a view: a Float64Array must start at a multiple of 8). A placeholder is
 * `{"$typed": name, "at": offset past the JSON's padding, "length": elements}`.
 */
const TYPED = {
  Int32Array,
  Float64Array,
  Uint8Array,
  Uint16Array,
  Float32Array,
} as const;

type TypedName = keyof typeof TYPED;
type TypedArray = InstanceType<(typeof TYPED)[TypedName]>;

interface Placeholder {
  $typed: TypedName;
  at: number;
  length: number;
}

/** The content type of a typed frame (plain JSON answers are `application/json`). */
export const TYPED_FRAME_TYPE = 'application/vnd.trace-explorer.typed-frame';

/** An answer as bytes to send: its content type and its parts, in order. */
export interface EncodedAnswer {
  contentType: string;
  parts: Uint8Array[];
  byteLength: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const padded = (n: number) => Math.ceil(n / 8) * 8;

/** `value` as JSON, or as a typed frame when it holds typed arrays. */
export function encodeAnswer(value: unknown): EncodedAnswer {
  const arrays: TypedArray[] = [];
  let at = 0;
  const place = (array: TypedArray): Placeholder => {
    const placeholder: Placeholder = {
      $typed: array.constructor.name as TypedName,
      at,
      length: array.length,
    };
    arrays.push(array);
    at += padded(array.byteLength);
    return placeholder;
  };
  let json: string;
  try {
    // the value with its typed arrays and bigints swapped, then JSON.stringify without a
    // replacer: a replacer is called for every value and takes the engine off its fast path
    // (a bin click's 43,750 row ids: 20-80 ms to encode instead of 1.5)
    json = JSON.stringify(carried(value, place));
  } catch (error) {
    if (error !== HAS_TO_JSON) throw error;
    // a value with toJSON (a Date) gives what it says only then: the replacer sees that
    arrays.length = 0;
    at = 0;
    json = JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'bigint' ? bigIntOut(_key, item) : isSent(item) ? place(item) : item,
    );
  }
  const text = encoder.encode(json);
  if (arrays.length === 0)
    return { contentType: 'application/json', parts: [text], byteLength: text.length };
  const byteLength = padded(4 + text.length) + at;
  const parts: Uint8Array[] = [];
  // the JSON and the small arrays copied into one buffer, a large array sent from its own
  // bytes: a perf digest's hundreds of small arrays were as many writes to the socket (33 ms
  // to answer instead of 7)
  let buffer = new Uint8Array(0);
  let used = 0;
  const put = (bytes: Uint8Array, size: number) => {
    if (size >= OWN_PART_BYTES) {
      if (used > 0) parts.push(buffer.subarray(0, used));
      parts.push(bytes);
      buffer = buffer.subarray(used);
      used = 0;
      const pad = padded(size) - size;
      if (pad > 0) parts.push(new Uint8Array(pad));
      return;
    }
    if (used + padded(size) > buffer.length) {
      if (used > 0) parts.push(buffer.subarray(0, used));
      buffer = new Uint8Array(Math.max(COPIED_BYTES, padded(size)));
      used = 0;
    }
    buffer.set(bytes, used);
    used += padded(size);
  };
  const head = new Uint8Array(4 + text.length);
  new DataView(head.buffer).setUint32(0, text.length, true);
  head.set(text, 4);
  put(head, head.length);
  for (const array of arrays)
    put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), array.byteLength);
  if (used > 0) parts.push(buffer.subarray(0, used));
  return { contentType: TYPED_FRAME_TYPE, parts, byteLength };
}

/** Thrown by `carried` at a value with toJSON (encodeAnswer then takes the replacer's way). */
const HAS_TO_JSON = new Error('a value with toJSON');

/** Whether `item` is a typed array the frame carries (not a DataView, not a BigInt64Array). */
function isSent(item: unknown): item is TypedArray {
  return (
    ArrayBuffer.isView(item) &&
    !(item instanceof DataView) &&
    Object.hasOwn(TYPED, item.constructor.name)
  );
}

/**
 * `value` as JSON.stringify should see it: each typed array of TYPED as `place` makes its
 * placeholder, each bigint as `{"$bigint": digits}`; objects and arrays that hold neither are
 * the very same objects, only the ones on the way to a swapped value are copied. Walks keys in
 * JSON.stringify's order (Object.keys), so placeholders are made in the order it writes them.
 */
function carried(value: unknown, place: (array: TypedArray) => Placeholder): unknown {
  if (typeof value === 'bigint') return bigIntOut('', value);
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') throw HAS_TO_JSON;
  // another view (a BigInt64Array's bigints, say) is walked as the object JSON makes of it
  if (isSent(value)) return place(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // numbers and strings, most of a large array, are what they are
      if (item === null || (typeof item !== 'object' && typeof item !== 'bigint')) continue;
      const sent = carried(item, place);
      if (sent !== item) (copy ??= value.slice())[i] = sent;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | null = null;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item === null || (typeof item !== 'object' && typeof item !== 'bigint')) continue;
    const sent = carried(item, place);
    if (sent !== item) (copy ??= { ...record })[key] = sent;
  }
  return copy ?? value;
}

/** Arrays of this many bytes or more are sent from their own bytes; smaller ones are copied. */
const OWN_PART_BYTES = 64 * 1024;
/** A replacer: an int beyond 2^53 (a dump's exact Python int) travels as its digits. */
export function bigIntOut(_key: string, item: unknown): unknown {
  return typeof item === 'bigint' ? { $bigint: item.toString() } : item;
}

/** `{"$bigint": digits}` (encodeAnswer's) back to the bigint it was; anything else as it is. */
export function bigIntBack(_key: string, item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const digits = (item as { $bigint?: unknown }).$bigint;
  if (typeof digits !== 'string' || !/^-?\d+$/.test(digits) || Object.keys(item).length !== 1)
    return item;
  return BigInt(digits);
}

/** The buffer small parts are copied into. */
const COPIED_BYTES = 256 * 1024;

/**
 * An answer's body read back: a typed frame's arrays as views of `body` (no copy), anything
 * else parsed as JSON. Throws on a frame that does not hold what its JSON says.
 */
export function decodeAnswer(contentType: string | null, body: ArrayBuffer): unknown {
  if (contentType?.split(';')[0].trim() !== TYPED_FRAME_TYPE)
    return parsed(decoder.decode(body), null);
  if (body.byteLength < 4) throw new Error('typed frame: shorter than its length field');
  const jsonLength = new DataView(body).getUint32(0, true);
  if (4 + jsonLength > body.byteLength) throw new Error('typed frame: its JSON runs past its end');
  const dataStart = padded(4 + jsonLength);
  return parsed(decoder.decode(new Uint8Array(body, 4, jsonLength)), (item) => {
    const Type = TYPED[item.$typed];
    const start = dataStart + item.at;
    if (
      start % 8 !== 0 ||
      !Number.isInteger(item.length) ||
      item.length < 0 ||
      start + item.length * Type.BYTES_PER_ELEMENT > body.byteLength
    )
      throw new Error(`typed frame: a ${item.$typed} at ${item.at} is not within the frame`);
    return new Type(body, start, item.length);
  });
}

/**
 * `text` parsed, each placeholder made its array by `typed` and each `{"$bigint": digits}` its
 * bigint, as a reviver of both would, but after a plain JSON.parse: a reviver is called for
 * every value (the engine's slow path), and text that names neither is parsed alone.
 */
function parsed(text: string, typed: ((item: Placeholder) => TypedArray) | null): unknown {
  const value: unknown = JSON.parse(text);
  // a key may be written escaped (\u0024bigint is $bigint): such text takes the walk too
  const named = (word: string) => text.includes(word) || /\\u0024/i.test(text);
  const bigints = named('$bigint');
  if (!bigints && (typed === null || !named('$typed'))) return value;
  return revived(value, typed, bigints);
}

/** What a reviver of placeholders (`typed`) and bigints gives for `value` (made in place). */
function revived(
  value: unknown,
  typed: ((item: Placeholder) => TypedArray) | null,
  bigints: boolean,
): unknown {
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  // children first, as a reviver (a placeholder's and a bigint's own values are plain)
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item !== null && typeof item === 'object') record[key] = revived(item, typed, bigints);
  }
  if (typed !== null && isPlaceholder(value)) return typed(value);
  return bigints ? bigIntBack('', value) : value;
}

function isPlaceholder(item: unknown): item is Placeholder {
  if (item === null || typeof item !== 'object') return false;
  const { $typed, at } = item as Partial<Placeholder>;
  return typeof $typed === 'string' && Object.hasOwn(TYPED, $typed) && typeof at === 'number';
}
