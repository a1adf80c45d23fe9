import { FormatError } from '../bytes/format-error';

/**
 * The error for a file no format reads. A JSON document says so and what it holds, without
 * an offset: "(at byte 0)" reads as a parse error in a file that parsed fine. Other bytes keep
 * offset 0 (its first bytes are what tells it apart).
 */
/** `whole`: the head holds the file to its end (it is shorter than a sniff reads) */
export function unknownFormatError(
  head: Uint8Array,
  whole: boolean,
  expected: string,
): FormatError {
  const json = jsonShape(head, whole);
  if (json === null) return new FormatError('open/unknown-format', `not ${expected}`, 0);
  return new FormatError('open/unknown-format', `${json}, but not ${expected}`);
}

/** "valid JSON (an object with keys a, b)", "JSON" (too long to parse here), or null. */
function jsonShape(head: Uint8Array, whole: boolean): string | null {
  let at = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) at = 3; // a byte-order mark
  while (
    at < head.length &&
    (head[at] === 0x20 || head[at] === 0x0a || head[at] === 0x0d || head[at] === 0x09)
  )
    at++;
  const first = head[at];
  if (first !== 0x7b && first !== 0x5b) return null; // { or [
  // the whole file is in the head (64 KiB): parsed, to say what it holds
  if (!whole) return 'a JSON document';
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(at)));
  } catch {
    return null;
  }
  if (Array.isArray(value)) return `valid JSON (a list of ${value.length})`;
  const keys = Object.keys(value as object);
  const shown = keys.slice(0, 5).join(', ') + (keys.length > 5 ? `, … (${keys.length} keys)` : '');
  return `valid JSON (an object with keys ${shown || 'none'})`;
}
