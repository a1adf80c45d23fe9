const SIZE = 1 << 14;

/** The FNV-1a hash of no bytes; fold each byte in with fnv(). */
export const FNV_START = 0x811c9dc5;

export function fnv(hash: number, byte: number): number {
  return Math.imul(hash ^ byte, 0x01000193);
}

/**
 * Short ASCII strings by their bytes: a hash table that keeps the last string seen per slot,
 * so a name read a million times is one string in memory and costs no allocation after the
 * first. Misses (a new id, a collision) make the string. Readers hash the bytes while they
 * check them (FNV_START, fnv), so each byte is visited once.
 */
export class AsciiStringCache {
  private readonly strings: (string | null)[] = new Array<string | null>(SIZE).fill(null);

  /** The string of the ASCII bytes [start, end), whose FNV-1a hash is `hash`. */
  get(bytes: Uint8Array, start: number, end: number, hash: number): string {
    const length = end - start;
    const slot = (hash ^ (hash >>> 15)) & (SIZE - 1);
    const known = this.strings[slot];
    if (known !== null && known.length === length) {
      let i = 0;
      while (i < length && known.charCodeAt(i) === bytes[start + i]) i++;
      if (i === length) return known;
    }
    const text = asciiText(bytes, start, end);
    this.strings[slot] = text;
    return text;
  }
}

type Latin1Slicing = { latin1Slice(start: number, end: number): string };
const hasLatin1Slice =
  typeof (Buffer.prototype as unknown as Partial<Latin1Slicing>).latin1Slice === 'function';

const latin1Slice = hasLatin1Slice
  ? (Buffer.prototype as unknown as Latin1Slicing).latin1Slice
  : undefined;

/**
 * ASCII bytes as a string: Buffer's own latin1Slice (no argument checks), which reads any
 * Uint8Array, not only a Buffer (a pickle's window is a plain one: its char codes through
 * String.fromCharCode took 2.5 times as long), else their char codes in chunks (an argument
 * list has a length limit).
 */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  if (latin1Slice !== undefined) return latin1Slice.call(bytes, start, end);
  let text = '';
  for (let i = start; i < end; i += 0x8000)
    text += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(end, i + 0x8000)) as unknown as number[],
    );
  return text;
}
