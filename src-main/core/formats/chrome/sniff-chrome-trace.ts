/**
 * Is `head` the start of a Chrome trace? A JSON array whose first element is an object with a
 * `ph` key, or an object with a `traceEvents` key (torch's Kineto writes `schemaVersion` and
 * `deviceProperties` first, so the key is looked for in the whole head). Leading whitespace
 * and a byte order mark are allowed. Cheap, and never throws.
 */
export function sniffChromeTrace(head: Uint8Array): boolean {
  try {
    let i = 0;
    while (i < head.length && isSkippable(head[i])) i++;
    if (i >= head.length) return false;
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(i));
    if (text.startsWith('{')) return /"traceEvents"\s*:\s*\[/.test(text);
    if (!text.startsWith('[')) return false;
    // the first element: an object whose keys (before any nested value) include "ph"
    const first = /^\[\s*\{/.exec(text);
    if (!first) return false;
    const keys = topLevelText(text, first[0].length - 1);
    return /"ph"\s*:\s*"[A-Za-z]"/.test(keys);
  } catch {
    return false;
  }
}

const isSkippable = (b: number) =>
  b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0xef || b === 0xbb || b === 0xbf;

/**
 * The object opening at `from` with its nested values left out (`{"args": , "ph": "X"}`), so
 * that a "ph" inside args does not count; up to the end of the head when the object is longer.
 */
function topLevelText(text: string, from: number): string {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let out = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return out;
    }
    if (depth === 1 && !(c === '{' && i === from)) out += c;
  }
  return out;
}
