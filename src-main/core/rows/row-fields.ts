import { jsonText } from '../model/json-text';
import { isDict, type PyValue } from '../model/py-value';
import type { AttrValue } from '../model/row';
import { pyBytesRepr, toFloat, truncate } from './python-values';

const SOURCE_LIMIT = 64;
const STATUS_LIMIT = 64;
const LABEL_LIMIT = 256;

/** slime's `value not in (None, "")`: unlike truthiness, 0, False and empty containers count. */
function present(value: PyValue | undefined): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * Step 6: the sample's source: its own field, else metadata `source`, `source_name`, or the
 * first metadata key containing "source" (any case). Kept as slime keeps it: an int stays an
 * int, only text is cut to 64 characters.
 */
export function sampleSource(sample: Record<string, PyValue>): AttrValue {
  const metadata = isDict(sample.metadata) ? sample.metadata : {};
  let source: PyValue | undefined;
  if (present(sample.source)) source = sample.source;
  else if (present(metadata.source)) source = metadata.source;
  else if (present(metadata.source_name)) source = metadata.source_name;
  else {
    for (const key of Object.keys(metadata)) {
      if (key.toLowerCase().includes('source') && present(metadata[key])) {
        source = metadata[key];
        break;
      }
    }
  }
  if (source === undefined) return null;
  const value = toAttr(source);
  return typeof value === 'string' ? truncate(value, SOURCE_LIMIT) : value;
}

/** Row attempt: int(trace.get("attempt", 0) or 0). */
export function traceAttempt(trace: Record<string, PyValue>): number {
  const n = toFloat(trace.attempt ?? 0);
  return n === null || !Number.isFinite(n) ? 0 : Math.trunc(n);
}

/** response_length as slime counts it: any int or float (True is 1), cut to an int. */
export function responseLength(value: AttrValue | undefined): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.trunc(value);
}

export function sampleStatus(sample: Record<string, PyValue>): string | null {
  const status = sample.status;
  return status === undefined || status === null ? null : truncate(pyStr(status), STATUS_LIMIT);
}

export function sampleLabel(sample: Record<string, PyValue>): AttrValue {
  const label = sample.label;
  if (typeof label === 'string') return truncate(label, LABEL_LIMIT);
  return toAttr(label);
}

/** str(x) for the scalar values a sample holds. */
export function pyStr(value: PyValue): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return jsonText(toAttr(value));
}

/** A pickle value as a JSON attr value (attrs, rewards, labels are plain data in practice). */
export function toAttr(value: PyValue | undefined): AttrValue {
  if (value === undefined || value === null) return null;
  // an int beyond 2^53 stays a bigint, exact, as slime's JSON writes it; within, a number
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return value;
  if (value instanceof Uint8Array) return pyBytesRepr(value);
  if (Array.isArray(value)) return value.map(toAttr);
  if (isDict(value)) {
    const out: Record<string, AttrValue> = {};
    for (const key of Object.keys(value)) {
      // a "__proto__" key from a pickle must stay a plain own key
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value: toAttr(value[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = toAttr(value[key]);
    }
    return out;
  }
  const tagged = value as {
    $kind: string;
    length?: number;
    dtype?: string;
    shape?: number[];
    module?: string;
    name?: string;
  };
  switch (tagged.$kind) {
    case 'lazy-list':
      return `<list of ${tagged.length}>`;
    case 'tensor':
    case 'ndarray':
      return `<${tagged.$kind} ${tagged.dtype} [${(tagged.shape ?? []).join(', ')}]>`;
    default:
      return `<${tagged.module ?? tagged.$kind}.${tagged.name ?? ''}>`;
  }
}
