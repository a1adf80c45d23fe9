/**
 * Values read from a pickle, as inert data. Nothing here can be called: a class named by a
 * pickle is a PyClassRef, an object built by an unknown callable is a PyObjectRef.
 *
 * - Python dicts become objects whose only prototype is DICT_PROTO, an empty frozen object
 *   with no prototype: like `Object.create(null)`, nothing is inherited and a key `__proto__`
 *   is just a key; unlike it, V8 keeps them as fast objects (a third of the memory, and three
 *   times faster to build: a dump holds millions of trace-event dicts). Non-string keys are
 *   stringified as Python's json.dumps would (1 -> "1", True -> "true", None -> "null").
 * - tuples and lists become arrays; sets and frozensets become PySet.
 * - ints become numbers when safe, else bigint; floats become numbers.
 * - bytes / bytearray become Uint8Array.
 * - token-sized lists of numbers are not built: they become LazyList (length + byte range).
 */
export type PyValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | PyValue[]
  | PyDict
  | LazyList
  | TensorRef
  | NdArrayRef
  | PySet
  | PyComplex
  | PyObjectRef
  | PyClassRef;

export interface PyDict {
  [key: string]: PyValue;
}

/** A long list of numbers that was skipped, not built: re-read on demand. */
export interface LazyList {
  $kind: 'lazy-list';
  length: number;
  /** 'int' | 'float' when homogeneous, else 'mixed' */
  elemType: 'int' | 'float' | 'mixed';
  /** Absolute byte range in the file of the pickle opcodes that build the list. */
  byteOffset: number;
  byteLength: number;
}

export interface TensorRef {
  $kind: 'tensor';
  dtype: string;
  shape: number[];
  stride: number[];
  storageOffset: number;
  /** storage key in the archive and its absolute byte range in the file */
  storage: {
    key: string;
    /** where its bytes start in the file; -1 when not there as they are, or not located yet */
    byteOffset: number;
    byteLength: number;
    dtype: string;
    /**
     * a zip entry's local header, where its bytes' start is read when its values are (reading
     * a header per storage while a dump with two tensors a sample opened cost a seventh of it)
     */
    entryAt?: number;
  };
}

export interface NdArrayRef {
  $kind: 'ndarray';
  dtype: string;
  shape: number[];
  /** the raw element bytes; small arrays are kept, large ones as a byte range */
  data?: Uint8Array;
  byteOffset?: number;
  byteLength?: number;
}

export interface PySet {
  $kind: 'set';
  frozen: boolean;
  items: PyValue[];
}

export interface PyComplex {
  $kind: 'complex';
  real: number;
  imag: number;
}

/** An object built by a callable that is not on the allow-list: shown, never run. */
export interface PyObjectRef {
  $kind: 'object';
  module: string;
  name: string;
  args: PyValue[];
  state: PyValue | undefined;
}

export interface PyClassRef {
  $kind: 'class';
  module: string;
  name: string;
}

/** The prototype of every dict read from a pickle: empty, frozen, itself without a prototype. */
export const DICT_PROTO: object = Object.freeze(Object.create(null) as object);

export function newPyDict(): PyDict {
  return Object.create(DICT_PROTO) as PyDict;
}

/**
 * A Python dict as the reader gives it (not a list, bytes, or a tagged value such as LazyList).
 * A dict read from a pickle is one whatever its keys, a key "$kind" included; a plain object
 * (a test's, a JSON file's) is one unless it has that key.
 */
export function isDict(value: PyValue | undefined): value is Record<string, PyValue> {
  if (value === null || typeof value !== 'object') return false;
  if (Object.getPrototypeOf(value) === DICT_PROTO) return true;
  return !Array.isArray(value) && !(value instanceof Uint8Array) && !('$kind' in value);
}

/**
 * A tagged value's kind ('lazy-list', 'tensor', 'set', 'object', ...), or undefined for
 * anything else: a dict with a "$kind" key is a dict.
 */
export function pyKind(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (value instanceof Uint8Array || isDict(value as PyValue)) return undefined;
  const kind = (value as { $kind?: unknown }).$kind;
  return typeof kind === 'string' ? kind : undefined;
}
