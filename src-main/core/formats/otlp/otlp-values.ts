import type { AttrValue, Attrs } from '../../model/row';

/** An OTLP id, hex or base64, as lowercase hex (decided by length and alphabet). */
export function normaliseId(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') return '';
  if ((raw.length === 32 || raw.length === 16) && isLowerHex(raw)) return raw;
  if (/^[0-9a-fA-F]+$/.test(raw) && (raw.length === 32 || raw.length === 16))
    return raw.toLowerCase();
  if (
    /^[A-Za-z0-9+/_-]+=*$/.test(raw) &&
    (raw.length === 24 || raw.length === 12 || raw.length === 22 || raw.length === 11)
  ) {
    const bytes = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 16 || bytes.length === 8) return bytes.toString('hex');
  }
  return raw.toLowerCase();
}

/** The common case, checked without a regex: a million spans have three ids each. */
function isLowerHex(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/**
 * Latest time a span may carry, in seconds (the year 5138): a timestamp of 10^400 nanoseconds
 * made a duration of "Infinity s". OTLP's 0 means "not set": kept as 1970 it stretched the
 * time axis across 56 years.
 */
const MAX_EPOCH_SECONDS = 1e11;

/** A time in seconds if it can be one, else null (not set, or impossible). */
export function plausibleSeconds(seconds: number | null): number | null {
  return seconds !== null && seconds > 0 && seconds <= MAX_EPOCH_SECONDS ? seconds : null;
}

/** Nanoseconds since the epoch (string or number) as float seconds, split to keep precision. */
export function nanosToSeconds(raw: unknown): number | null {
  return plausibleSeconds(rawNanosToSeconds(raw));
}

function rawNanosToSeconds(raw: unknown): number | null {
  if (typeof raw === 'string') {
    const n = raw.length;
    if (n === 0 || n > 25)
      return /^\d+$/.test(raw) ? Number(raw.slice(0, -9)) + Number(raw.slice(-9)) / 1e9 : null;
    // whole seconds and nanoseconds as exact integers (at most 16 and 9 digits), no slices
    let seconds = 0;
    let nanos = 0;
    const split = n - 9;
    for (let i = 0; i < n; i++) {
      const d = raw.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return null;
      if (i < split) seconds = seconds * 10 + d;
      else nanos = nanos * 10 + d;
    }
    return seconds + nanos / 1e9;
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw / 1e9;
  return null;
}

/**
 * Attribute values nest (arrays, key-value lists) at most this deep; deeper ones read as a
 * note: a 10,000-deep attribute overflowed the stack and refused the whole file.
 */
export const MAX_ATTR_DEPTH = 32;
const TOO_DEEP = `[nested deeper than ${MAX_ATTR_DEPTH} levels]`;

/** AnyValue -> plain value. */
export function anyValue(v: unknown, depth = 0): AttrValue {
  if (v === null || typeof v !== 'object') return (v as AttrValue) ?? null;
  if (depth >= MAX_ATTR_DEPTH) return TOO_DEEP;
  const o = v as Record<string, unknown>;
  if ('stringValue' in o || 'string_value' in o) return String(o.stringValue ?? o.string_value);
  if ('boolValue' in o || 'bool_value' in o) return Boolean(o.boolValue ?? o.bool_value);
  if ('intValue' in o || 'int_value' in o) return intAttr(o.intValue ?? o.int_value);
  if ('doubleValue' in o || 'double_value' in o) return doubleAttr(o.doubleValue ?? o.double_value);
  if ('bytesValue' in o || 'bytes_value' in o) return String(o.bytesValue ?? o.bytes_value);
  const array = (o.arrayValue ?? o.array_value) as { values?: unknown[] } | undefined;
  if (array)
    return Array.isArray(array.values) ? array.values.map((x) => anyValue(x, depth + 1)) : [];
  const kvlist = (o.kvlistValue ?? o.kvlist_value) as { values?: unknown[] } | undefined;
  if (kvlist) return keyValues(kvlist.values, depth + 1);
  return null;
}

/** An int64 attribute (a JSON string or number): a number while exact, else its text. */
export function intAttr(raw: unknown): AttrValue {
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : String(raw);
}

export function doubleAttr(raw: unknown): number {
  return typeof raw === 'number' ? raw : Number(raw);
}

/** Shared by every span without attributes: a million spans need not hold a million `{}`. */
export const EMPTY_ATTRS: Attrs = Object.freeze({}) as Attrs;

export function keyValues(list: unknown, depth = 0): Attrs {
  if (!Array.isArray(list) || list.length === 0) return EMPTY_ATTRS;
  const out: Attrs = {};
  for (const kv of list) {
    if (kv && typeof kv === 'object' && typeof (kv as { key?: unknown }).key === 'string') {
      const { key, value } = kv as { key: string; value?: unknown };
      setAttr(out, key, anyValue(value, depth));
    }
  }
  return out;
}

export function setAttr(out: Attrs, key: string, value: AttrValue): void {
  // a key named __proto__ must become a property, not replace the prototype
  if (key === '__proto__') {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else out[key] = value;
}

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

export function spanKind(raw: unknown): string {
  if (typeof raw === 'number') return KINDS[raw] ?? String(raw);
  if (typeof raw === 'string') return raw.replace(/^SPAN_KIND_/, '');
  return 'UNSPECIFIED';
}

export type Status = { code: 'UNSET' | 'OK' | 'ERROR'; message: string };
const PLAIN_STATUS: Record<Status['code'], Status> = {
  UNSET: Object.freeze({ code: 'UNSET', message: '' }),
  OK: Object.freeze({ code: 'OK', message: '' }),
  ERROR: Object.freeze({ code: 'ERROR', message: '' }),
};

/** status {} | {code: 0} | {message, code}, code a number or 'STATUS_CODE_ERROR' */
export function statusOf(raw: unknown): Status {
  if (!raw || typeof raw !== 'object') return PLAIN_STATUS.UNSET;
  const o = raw as { code?: unknown; message?: unknown };
  return statusFrom(o.code, o.message);
}

export function statusFrom(c: unknown, rawMessage: unknown): Status {
  const code =
    c === 2 || c === 'STATUS_CODE_ERROR' || c === 'ERROR'
      ? 'ERROR'
      : c === 1 || c === 'STATUS_CODE_OK' || c === 'OK'
        ? 'OK'
        : 'UNSET';
  const message = typeof rawMessage === 'string' ? rawMessage : '';
  return message === '' ? PLAIN_STATUS[code] : { code, message };
}

/** camelCase or snake_case field */
export function field(o: Record<string, unknown>, camel: string, snake: string): unknown {
  return camel in o ? o[camel] : o[snake];
}
