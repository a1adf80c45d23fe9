/**
 * Python's JSON: the exporter writes with `json.dump`, whose default (`allow_nan=True`) puts
 * `NaN`, `Infinity` and `-Infinity` in the text for such floats (a NaN latency, a -inf
 * log-prob). JSON.parse refuses them; a line that has them is parsed again with each one
 * (outside strings) read as the number it stands for. Valid JSON takes the fast path only.
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const marked = markConstants(text);
    if (marked === null) throw error;
    return JSON.parse(marked, (_key, value: unknown) =>
      typeof value === 'string' && value.charCodeAt(0) === 0 && CONSTANTS.has(value)
        ? CONSTANTS.get(value)
        : value,
    );
  }
}

/** Each constant's stand-in string: a NUL first, which no name or text of a record starts with. */
const CONSTANTS = new Map<string, number>([
  ['\u0000py:NaN', NaN],
  ['\u0000py:Infinity', Infinity],
  ['\u0000py:-Infinity', -Infinity],
]);
const WORDS = ['NaN', 'Infinity', '-Infinity'] as const;

/** The text with every constant outside strings as its quoted stand-in; null when none is. */
function markConstants(text: string): string | null {
  const parts: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // an escape: the next char is not the string's end
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x4e || c === 0x49 || c === 0x2d) {
      // N, I or -: a constant when the word is there whole
      const word = WORDS.find((w) => text.startsWith(w, i));
      if (word === undefined) continue;
      parts.push(text.slice(from, i), JSON.stringify(`\u0000py:${word}`));
      i += word.length - 1;
      from = i + 1;
    }
  }
  if (parts.length === 0) return null;
  parts.push(text.slice(from));
  return parts.join('');
}
