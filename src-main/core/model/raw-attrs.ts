import { cutDeepValues } from './cut-deep-values';
import type { Attrs } from './row';

/**
 * An item's attrs kept as the JSON text they were read from (a Chrome event's `args`), parsed
 * only when something asks for them (details, search, export, SQL). A GPU rank's million
 * events each carried an args object from JSON.parse to the end of the open, and then its
 * values packed again: the largest part of the open's time and peak, for attrs that are
 * mostly never looked at. The text is a range of `bytes` (an arena of such texts, shared),
 * checked to be a JSON object by the reader that kept it. `cat`, when not null, is added as
 * the attr `cat` unless the object has one (Chrome's rows show an event's category there).
 */
export class RawAttrs {
  constructor(
    readonly bytes: Uint8Array,
    readonly from: number,
    readonly length: number,
    readonly cat: string | null,
  ) {}
}

const decoder = new TextDecoder('utf-8');

/**
 * The attrs of a raw text: a fresh object each call (callers may keep or change it), values
 * nested too deep cut as the readers cut them.
 */
export function parseRawAttrs(
  bytes: Uint8Array,
  from: number,
  length: number,
  cat: string | null,
): Attrs {
  const attrs = JSON.parse(decoder.decode(bytes.subarray(from, from + length))) as Attrs;
  cutDeepValues(attrs);
  if (cat !== null && attrs.cat === undefined) attrs.cat = cat;
  return attrs;
}

/** `attrs` as an object: a raw text parsed, else itself. */
export function attrsOf(attrs: Attrs | RawAttrs): Attrs {
  return attrs instanceof RawAttrs
    ? parseRawAttrs(attrs.bytes, attrs.from, attrs.length, attrs.cat)
    : attrs;
}
