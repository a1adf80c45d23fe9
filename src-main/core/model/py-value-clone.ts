import { DICT_PROTO, newPyDict, type PyDict, type PyValue } from './py-value';

/**
 * PyValues across threads. Structured cloning keeps arrays, bigints, bytes, Maps and shared
 * references, but not a dict's prototype (DICT_PROTO: a cloned dict would inherit Object's
 * members and read as any object), and a dict holding a `$kind` key could not be told from a
 * tagged value afterwards. So dicts travel as Maps (key order kept) and come back as dicts;
 * everything else travels as it is, its PyValues inside converted the same way. Shared and
 * cyclic references stay shared.
 */
export type ClonedPyValue = unknown;

export function toCloneable(value: PyValue): ClonedPyValue {
  return convert(value, new Map(), toOne);
}

export function fromCloneable(value: ClonedPyValue): PyValue {
  return convert(value, new Map(), fromOne) as PyValue;
}

type One = (value: object, seen: Map<object, unknown>) => unknown;

function convert(value: unknown, seen: Map<object, unknown>, one: One): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const done = seen.get(value);
  return done !== undefined ? done : one(value, seen);
}

/** A PyValue that is an object (not bytes), not seen yet: its cloneable form. */
function toOne(value: object, seen: Map<object, unknown>): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(convert(item, seen, toOne));
    return out;
  }
  if (Object.getPrototypeOf(value) === DICT_PROTO) {
    const out = new Map<string, unknown>();
    seen.set(value, out);
    for (const key of Object.keys(value))
      out.set(key, convert((value as PyDict)[key], seen, toOne));
    return out;
  }
  return tagged(value, seen, toOne);
}

function fromOne(value: object, seen: Map<object, unknown>): unknown {
  if (Array.isArray(value)) {
    const out: PyValue[] = [];
    seen.set(value, out);
    for (const item of value) out.push(convert(item, seen, fromOne) as PyValue);
    return out;
  }
  if (value instanceof Map) {
    const out = newPyDict();
    seen.set(value, out);
    for (const [key, item] of value) out[key as string] = convert(item, seen, fromOne) as PyValue;
    return out;
  }
  return tagged(value, seen, fromOne);
}

/** A tagged value ($kind): its own fields copied, the PyValues among them converted. */
function tagged(value: object, seen: Map<object, unknown>, one: One): unknown {
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, field] of Object.entries(value))
    out[key] = PY_VALUE_FIELDS.has(key) ? convert(field, seen, one) : field;
  return out;
}

/** the fields of tagged values that hold PyValues (a set's items, an object's args and state) */
const PY_VALUE_FIELDS = new Set(['items', 'args', 'state']);
