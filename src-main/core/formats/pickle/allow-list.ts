import {
  isDict,
  newPyDict,
  pyKind,
  type NdArrayRef,
  type PyClassRef,
  type PyDict,
  type PyObjectRef,
  type PyValue,
  type TensorRef,
} from '../../model/py-value';

export interface CallContext {
  fail(code: string, message: string): never;
  /** counts elements a call copies against the pickle's budget; fails when it runs out */
  chargeCopy(elements: number): void;
}

/** A torch storage named by a persistent id, with its bytes' place in the file once known. */
export interface StorageRef {
  $kind: 'object';
  module: 'torch';
  name: 'storage';
  args: PyValue[];
  state: undefined;
  /** what the tensors built on it hold (TensorRef.storage), and its element count */
  storage: TensorRef['storage'] & { numel: number };
}

const isClass = (v: PyValue): v is PyClassRef => pyKind(v) === 'class';

const qualified = (c: PyClassRef) => `${c.module}.${c.name}`;

const BUILTINS = new Set(['builtins', '__builtin__']);
const NUMPY_RECONSTRUCT = new Set([
  'numpy.core.multiarray._reconstruct',
  'numpy._core.multiarray._reconstruct',
]);
const NUMPY_SCALAR = new Set(['numpy.core.multiarray.scalar', 'numpy._core.multiarray.scalar']);

/**
 * What a REDUCE / NEWOBJ of `callable(args)` means, as data. A short allow-list is
 * interpreted (never called); everything else becomes an inert PyObjectRef.
 */
export function interpretCall(
  callable: PyValue,
  args: PyValue[],
  ctx: CallContext,
  isNew: boolean,
): PyValue {
  if (!isClass(callable)) {
    return inert('?', describe(callable), args);
  }
  const name = qualified(callable);
  if (BUILTINS.has(callable.module)) {
    switch (callable.name) {
      case 'set':
      case 'frozenset': {
        const items = Array.isArray(args[0]) ? (args[0] as PyValue[]) : [];
        ctx.chargeCopy(items.length);
        return { $kind: 'set', frozen: callable.name === 'frozenset', items: [...items] };
      }
      case 'bytearray':
      case 'bytes':
        if (args.length === 0) return new Uint8Array(0);
        if (args[0] instanceof Uint8Array) return args[0];
        if (typeof args[0] === 'string') return latin1Bytes(args[0], ctx);
        if (Array.isArray(args[0])) {
          ctx.chargeCopy(args[0].length);
          return Uint8Array.from(args[0] as number[]);
        }
        break;
      case 'complex':
        return { $kind: 'complex', real: Number(args[0] ?? 0), imag: Number(args[1] ?? 0) };
      case 'getattr':
        // getattr(Sample, "Status") -> a nested class reference, still inert
        if (isClass(args[0]) && typeof args[1] === 'string') {
          // getattr(Sample.Status, "TRUNCATED"): an enum member by name reads as its value;
          // slime's Status members are named as their values, upper-cased.
          if (args[0].name.includes('.') && /^[A-Z][A-Z0-9_]*$/.test(args[1])) {
            return /Status$/.test(args[0].name) ? args[1].toLowerCase() : args[1];
          }
          return { $kind: 'class', module: args[0].module, name: `${args[0].name}.${args[1]}` };
        }
        break;
    }
  }
  if (name === '_codecs.encode' && typeof args[0] === 'string') return latin1Bytes(args[0], ctx);
  if (name === 'collections.OrderedDict') {
    const dict = newPyDict();
    if (Array.isArray(args[0])) {
      ctx.chargeCopy(args[0].length);
      for (const pair of args[0] as PyValue[]) {
        if (Array.isArray(pair) && pair.length === 2) dict[String(pair[0])] = pair[1];
      }
    }
    return dict;
  }
  if (name === 'torch._utils._rebuild_tensor_v2' || name === 'torch._utils._rebuild_tensor') {
    return rebuildTensor(args, ctx);
  }
  if (
    name === 'torch._utils._rebuild_parameter' ||
    name === 'torch._utils._rebuild_parameter_with_state'
  ) {
    return args[0] ?? null;
  }
  if (NUMPY_RECONSTRUCT.has(name)) {
    const array: NdArrayRef = { $kind: 'ndarray', dtype: 'unknown', shape: toShape(args[1]) };
    return array;
  }
  if (name === 'numpy.dtype') {
    return {
      $kind: 'object',
      module: 'numpy',
      name: 'dtype',
      args: [typeof args[0] === 'string' ? args[0] : String(args[0])],
      state: undefined,
    };
  }
  if (NUMPY_SCALAR.has(name)) return numpyScalar(args[0], args[1]);
  // Enums pickle as Class(value): a class reached through getattr (Sample.Status) or named
  // like one, called with one plain value, reads as that value.
  if (!isNew && args.length === 1 && isScalar(args[0]) && looksLikeEnum(callable)) return args[0];
  return inert(callable.module, callable.name, args);
}

/**
 * Whether `obj` is a value nothing changes once it is made: a numpy dtype (made from its name;
 * its BUILD state, byte order and the like, is not applied). The pickler memoizes one per
 * dtype and every later sample holding an array of it reads it back by memo slot: like a
 * class, such an object is no container an item would share with an earlier one.
 */
export function isSettledObject(obj: PyObjectRef): boolean {
  return obj.module === 'numpy' && obj.name === 'dtype';
}

/** BUILD(obj, state): numpy arrays take their data; unknown objects read as their dict. */
export function interpretBuild(obj: PyValue, state: PyValue, _ctx: CallContext): PyValue {
  if (obj === null || typeof obj !== 'object') return obj;
  const kind = pyKind(obj);
  if (kind === 'ndarray') {
    const array = obj as NdArrayRef;
    if (Array.isArray(state) && state.length >= 5) {
      array.shape = toShape(state[1]);
      array.dtype = dtypeName(state[2]);
      const raw = state[4];
      if (raw instanceof Uint8Array) array.data = raw;
    }
    return array;
  }
  if (kind === 'object') {
    const ref = obj as PyObjectRef;
    if (isSettledObject(ref)) return ref; // byte order etc.: not needed
    // (dict, slotstate) or dict: an object read as the plain dict of its attributes
    const dict = Array.isArray(state) && state.length === 2 && isDict(state[0]) ? state[0] : state;
    if (isDict(dict) && ref.args.length === 0) {
      if (Array.isArray(state) && isDict(state[1])) Object.assign(dict as PyDict, state[1]);
      return dict;
    }
    ref.state = state;
    return ref;
  }
  if (kind === undefined && !Array.isArray(obj) && !(obj instanceof Uint8Array) && isDict(state)) {
    Object.assign(obj as PyDict, state as PyDict);
  }
  return obj;
}

function rebuildTensor(args: PyValue[], ctx: CallContext): TensorRef {
  const storage = args[0] as StorageRef | null;
  if (!storage || typeof storage !== 'object' || !('storage' in storage)) {
    return ctx.fail('torch/bad-tensor', 'a tensor without a storage');
  }
  const s = storage.storage;
  return {
    $kind: 'tensor',
    dtype: s.dtype,
    shape: toShape(args[2]),
    stride: toShape(args[3]),
    storageOffset: Number(args[1] ?? 0),
    // the same object: the legacy layout locates storage bytes after the pickle is read
    storage: s,
  };
}

function numpyScalar(dtype: PyValue, data: PyValue): PyValue {
  const name = dtypeName(dtype);
  if (!(data instanceof Uint8Array)) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  try {
    switch (name) {
      case 'float64':
        return view.getFloat64(0, true);
      case 'float32':
        return view.getFloat32(0, true);
      case 'int64': {
        const v = view.getBigInt64(0, true);
        return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(v)
          : v;
      }
      case 'int32':
        return view.getInt32(0, true);
      case 'int16':
        return view.getInt16(0, true);
      case 'int8':
        return view.getInt8(0);
      case 'uint8':
        return view.getUint8(0);
      case 'bool':
        return view.getUint8(0) !== 0;
    }
  } catch {
    return null;
  }
  return { $kind: 'ndarray', dtype: name, shape: [], data };
}

function dtypeName(dtype: PyValue): string {
  if (pyKind(dtype) === 'object') {
    const raw = String((dtype as PyObjectRef).args[0] ?? 'unknown');
    const map: Record<string, string> = {
      f8: 'float64',
      f4: 'float32',
      f2: 'float16',
      i8: 'int64',
      i4: 'int32',
      i2: 'int16',
      i1: 'int8',
      u1: 'uint8',
      b1: 'bool',
    };
    return map[raw] ?? raw;
  }
  return typeof dtype === 'string' ? dtype : 'unknown';
}

function toShape(v: PyValue): number[] {
  if (!Array.isArray(v)) return typeof v === 'number' ? [v] : [];
  return v.map((d) => Number(d));
}

function isScalar(v: PyValue): boolean {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function looksLikeEnum(c: PyClassRef): boolean {
  return (
    c.name.includes('.') ||
    /(Status|Enum|Mode|Type|Kind|State|Reason)$/.test(c.name) ||
    c.module === 'enum'
  );
}

function inert(module: string, name: string, args: PyValue[]): PyObjectRef {
  return { $kind: 'object', module, name, args, state: undefined };
}

function describe(v: PyValue): string {
  return pyKind(v) ?? (isDict(v) ? 'dict' : typeof v);
}

function latin1Bytes(text: string, ctx: CallContext): Uint8Array {
  ctx.chargeCopy(text.length);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}
