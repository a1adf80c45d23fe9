import type { PyValue } from './py-value';

/**
 * Two 32-bit multiplicative hashes of the text's UTF-16 units, as 16 hex digits: what compare
 * matches prompts by (SampleFacts.promptHash), so that prompts of thousands of characters,
 * 100k times, are kept and crossed between threads as 16 characters each.
 */
export function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return hex64(a, b);
}

const HEX_DIGITS = '0123456789abcdef';

/**
 * Two 32-bit numbers as 16 hex digits in one flat string: kept once per sample, and two padded
 * halves joined by `+` are a rope of three strings (89 bytes of heap each at 100k samples
 * against 42).
 */
function hex64(a: number, b: number): string {
  const codes = new Array<number>(16);
  for (let i = 0; i < 8; i++) {
    const shift = 28 - 4 * i;
    codes[i] = HEX_DIGITS.charCodeAt((a >>> shift) & 15);
    codes[8 + i] = HEX_DIGITS.charCodeAt((b >>> shift) & 15);
  }
  return String.fromCharCode(...codes);
}

/**
 * A value as text to hash: a string as it is, anything else as JSON (bigints as their digits),
 * or String() of it when JSON cannot say it (a cycle).
 */
export function stableText(value: PyValue): string {
  if (typeof value === 'string') return value;
  try {
    // without a replacer first (a chat prompt's messages: several times faster); the same
    // text unless a bigint is in it, which throws here and is written by the replacer below
    return JSON.stringify(value);
  } catch {
    // a bigint, or a cycle (thrown again below)
  }
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return String(value);
  }
}
