import type { AttrValue, Attrs } from '../../model/row';

/** An OTLP id, hex or base64, as lowercase hex (decided by length and alphabet). */
export function normaliseId(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') return '';
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

/** Nanoseconds since the epoch (string or number) as float seconds, split to keep precision. */
export function nanosToSeconds(raw: unknown): number | null {
  if (typeof raw === 'string') {
    if (!/^\d+$/.test(raw)) return null;
    if (raw.length <= 9) return Number(raw) / 1e9;
    return Number(raw.slice(0, -9)) + Number(raw.slice(-9)) / 1e9;
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw / 1e9;
  return null;
}

/** AnyValue -> plain value. */
export function anyValue(v: unknown): AttrValue {
  if (v === null || typeof v !== 'object') return (v as AttrValue) ?? null;
  const o = v as Record<string, unknown>;
  if ('stringValue' in o || 'string_value' in o) return String(o.stringValue ?? o.string_value);
  if ('boolValue' in o || 'bool_value' in o) return Boolean(o.boolValue ?? o.bool_value);
  if ('intValue' in o || 'int_value' in o) {
    const raw = o.intValue ?? o.int_value;
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : String(raw);
  }
  if ('doubleValue' in o || 'double_value' in o) {
    const d = o.doubleValue ?? o.double_value;
    return typeof d === 'number' ? d : Number(d);
  }
  if ('bytesValue' in o || 'bytes_value' in o) return String(o.bytesValue ?? o.bytes_value);
  const array = (o.arrayValue ?? o.array_value) as { values?: unknown[] } | undefined;
  if (array) return (array.values ?? []).map(anyValue);
  const kvlist = (o.kvlistValue ?? o.kvlist_value) as { values?: unknown[] } | undefined;
  if (kvlist) return keyValues(kvlist.values);
  return null;
}

export function keyValues(list: unknown): Attrs {
  const out: Attrs = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (kv && typeof kv === 'object' && typeof (kv as { key?: unknown }).key === 'string') {
      const { key, value } = kv as { key: string; value?: unknown };
      Object.defineProperty(out, key, {
        value: anyValue(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

export function spanKind(raw: unknown): string {
  if (typeof raw === 'number') return KINDS[raw] ?? String(raw);
  if (typeof raw === 'string') return raw.replace(/^SPAN_KIND_/, '');
  return 'UNSPECIFIED';
}

/** status {} | {code: 0} | {message, code}, code a number or 'STATUS_CODE_ERROR' */
export function statusOf(raw: unknown): { code: 'UNSET' | 'OK' | 'ERROR'; message: string } {
  if (!raw || typeof raw !== 'object') return { code: 'UNSET', message: '' };
  const o = raw as { code?: unknown; message?: unknown };
  const c = o.code;
  const code =
    c === 2 || c === 'STATUS_CODE_ERROR' || c === 'ERROR'
      ? 'ERROR'
      : c === 1 || c === 'STATUS_CODE_OK' || c === 'OK'
        ? 'OK'
        : 'UNSET';
  return { code, message: typeof o.message === 'string' ? o.message : '' };
}

/** camelCase or snake_case field */
export function field(o: Record<string, unknown>, camel: string, snake: string): unknown {
  return camel in o ? o[camel] : o[snake];
}
