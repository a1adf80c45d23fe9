import { isDict, type PyValue } from '../model/py-value';

const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_LITERAL = new RegExp(
  `^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:e[+-]?${DIGITS})?$`,
);

/** Python's float(x) for what a trace may hold: numbers, numeric strings, booleans. */
export function toFloat(value: PyValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    // underscores only between digits, as Python's float() accepts them
    if (FLOAT_LITERAL.test(text)) return Number(text.replace(/_/g, ''));
    if (/^[+-]?(inf|infinity)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(text)) return NaN;
  }
  return null;
}

/** Python's str ordering: by code point (JS's `<` compares UTF-16 units). */
export function comparePyStr(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Python truthiness of a value read from a pickle. */
export function truthy(value: PyValue | undefined): boolean {
  if (
    value === null ||
    value === undefined ||
    value === false ||
    value === 0 ||
    value === '' ||
    value === 0n
  ) {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Uint8Array) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * Python's round(x, 6): the exact binary value rounded half-to-even at the 6th decimal, then
 * the double nearest that decimal.
 */
export function round6(x: number): number {
  if (!Number.isFinite(x)) return x;
  const scaled = x * 1e6;
  if (!(Math.abs(scaled) < 2 ** 52)) return round6Slow(x);
  // x * 1e6 is off the exact product by at most a quarter here, so away from .5 the nearest
  // integer is the right one, and n / 1e6 (both exact) is correctly rounded like float(str).
  const k = Math.floor(scaled);
  const frac = scaled - k;
  if (Math.abs(frac - 0.5) > 0.3) return Math.round(scaled) / 1e6;
  // Near .5: compare x with the midpoint (2k + 1) / 2e6 exactly, via x * 2e6 as an unevaluated
  // sum p + e (Dekker's product); 2k + 1 is an exact double, and rounding is monotonic.
  const [p, e] = twoProduct(x, 2e6);
  const mid = 2 * k + 1;
  const sign = p !== mid ? p - mid : e;
  const n = sign > 0 ? k + 1 : sign < 0 ? k : k % 2 === 0 ? k : k + 1;
  return n / 1e6;
}

/** a * b = p + e exactly (no overflow or underflow at the magnitudes used here) */
function twoProduct(a: number, b: number): [number, number] {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function split(a: number): [number, number] {
  const c = 134217729 * a; // 2^27 + 1
  const high = c - (c - a);
  return [high, a - high];
}

/** Beyond 2^52 / 1e6: decide with toFixed's exact decimal expansion. */
function round6Slow(x: number): number {
  const rounded = Number(x.toFixed(6));
  const exact = x.toFixed(30);
  const dot = exact.indexOf('.');
  const tail = exact.slice(dot + 7);
  if (tail[0] === '5' && /^50*$/.test(tail)) {
    // exactly halfway: toFixed rounded away from zero; Python keeps the even neighbour
    const lastDigit = Number(exact[dot + 6]);
    if (lastDigit % 2 === 0) return Number(exact.slice(0, dot + 7));
  }
  return rounded;
}

/** slime's string cut: the first `limit` characters, then "...<truncated:N>". */
export function truncate(value: string, limit: number): string {
  const chars = Array.from(value);
  return chars.length <= limit
    ? value
    : `${chars.slice(0, limit).join('')}...<truncated:${chars.length}>`;
}

/**
 * An id or name as text: str(x) for scalars; null for a dict, list or object, which a trace
 * never means as an id (such an event is skipped and counted; String() of a null-prototype
 * dict would throw).
 */
export function scalarText(value: PyValue | undefined): string | null {
  if (value === undefined) return null;
  if (value === null) return 'None';
  if (typeof value === 'object') return null;
  return String(value);
}

/** Whether a value is a container (dict, list, set, object) rather than a scalar. */
export function isContainer(value: PyValue | undefined): boolean {
  return value !== null && value !== undefined && typeof value === 'object';
}

/**
 * Python's str() of bytes (its repr): `b'...'`, single quotes unless the bytes hold a single
 * quote and no double quote; `\t \n \r \\`, the quote, and bytes outside 0x20..0x7e escaped.
 * slime's viewer writes a bytes attribute this way (json_safe falls back to str()).
 */
export function pyBytesRepr(bytes: Uint8Array): string {
  const hasSingle = bytes.includes(0x27);
  const quote = hasSingle && !bytes.includes(0x22) ? '"' : "'";
  let out = `b${quote}`;
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (String.fromCharCode(b) === quote) out += `\\${quote}`;
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  return out + quote;
}
