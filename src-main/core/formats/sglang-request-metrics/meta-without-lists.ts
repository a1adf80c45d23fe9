import { stringEnd } from './string-end';
import { skipSpaces } from './sniff-request-metrics';

const decoder = new TextDecoder();

/** Where a walk over a line's bytes stopped: why, at which byte. */
export class ScanError {
  constructor(readonly reason: string) {}
}

/**
 * The keys of a JSON object's text from `from` (just inside it, or after a comma) to its
 * closing brace, as one object's text with every value that is a list left out. meta_info's
 * lists (the per-token log-probs, `[logprob, token, null]` each: most of its bytes) are never
 * read by the record or its row, and JSON.parse of them took most of an open (two thirds of the
 * line parsing); walking past their brackets costs a byte comparison each. A left-out list is
 * walked to its closing bracket (brackets counted outside strings), not parsed; what is kept
 * is parsed whole.
 */
export function metaWithoutLists(line: Uint8Array, from: number): string | ScanError {
  const kept: string[] = [];
  let keptFrom = -1; // start of the run of kept entries being gathered
  let keptTo = -1;
  let i = skipSpaces(line, from);
  if (line[i] === 0x7d) return trailing(line, i, '{}');
  for (;;) {
    if (line[i] !== 0x22) return new ScanError('a key is not a string');
    const keyStart = i;
    const keyEnd = stringEnd(line, i + 1);
    if (keyEnd < 0) return new ScanError('a key never ends');
    i = skipSpaces(line, keyEnd + 1);
    if (line[i] !== 0x3a) return new ScanError('no ":" after a key');
    i = skipSpaces(line, i + 1);
    const valueEnd = valueEndAt(line, i);
    if (valueEnd instanceof ScanError) return valueEnd;
    if (line[i] === 0x5b) {
      // a list: the run of kept entries before it ends here
      if (keptFrom >= 0) kept.push(decoder.decode(line.subarray(keptFrom, keptTo)));
      keptFrom = -1;
    } else {
      if (keptFrom < 0) keptFrom = keyStart;
      keptTo = valueEnd;
    }
    i = skipSpaces(line, valueEnd);
    if (line[i] === 0x2c) {
      i = skipSpaces(line, i + 1);
      continue;
    }
    if (line[i] !== 0x7d) return new ScanError('no "," or "}" after a value');
    if (keptFrom >= 0) kept.push(decoder.decode(line.subarray(keptFrom, keptTo)));
    return trailing(line, i, `{${kept.join(',')}}`);
  }
}

function trailing(line: Uint8Array, close: number, text: string): string | ScanError {
  return skipSpaces(line, close + 1) === line.length ? text : new ScanError('text after the "}"');
}

/** The byte after the JSON value starting at `at`: a string, a list or object, or a scalar. */
function valueEndAt(line: Uint8Array, at: number): number | ScanError {
  const first = line[at];
  if (first === 0x22) {
    const end = stringEnd(line, at + 1);
    return end < 0 ? new ScanError('a string never ends') : end + 1;
  }
  if (first === 0x5b || first === 0x7b) return nestedEnd(line, at);
  let i = at;
  while (i < line.length) {
    const b = line[i];
    if (b === 0x2c || b === 0x7d || b === 0x20 || b === 0x09 || b === 0x0d) break;
    i++;
  }
  return i === at ? new ScanError('a value is missing') : i;
}

const PAIR_CLOSE = Buffer.from(']]');
const PAIR_OPEN = Buffer.from('[[');

/**
 * The byte after a list of lists of numbers (`[[logprob, token, null], ...]`, as SGLang writes
 * its per-token log-probs) by native searches, or -1 for any other value. Without strings or
 * objects and without a `[[` but its first, no list in it is deeper than 2, so its first `]]`
 * closes it. Walking such a list a byte at a time in JavaScript was the read's costliest step.
 */
function pairListEnd(line: Uint8Array, at: number): number {
  if (line[at + 1] !== 0x5b) return -1;
  const bytes = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const close = bytes.indexOf(PAIR_CLOSE, at + 2);
  if (close < 0) return -1;
  const inside = bytes.subarray(at + 1, close);
  if (inside.indexOf(0x22) >= 0 || inside.indexOf(0x7b) >= 0 || inside.indexOf(PAIR_OPEN) >= 0)
    return -1;
  return close + 2;
}

/** The byte after the list or object at `at`, its brackets counted outside strings. */
function nestedEnd(line: Uint8Array, at: number): number | ScanError {
  const fast = line[at] === 0x5b ? pairListEnd(line, at) : -1;
  if (fast >= 0) return fast;
  let depth = 0;
  for (let i = at; i < line.length; i++) {
    const b = line[i];
    if (b === 0x5b || b === 0x7b) depth++;
    else if (b === 0x5d || b === 0x7d) {
      if (--depth === 0) return i + 1;
    } else if (b === 0x22) {
      const end = stringEnd(line, i + 1);
      if (end < 0) return new ScanError('a string never ends');
      i = end;
    }
  }
  return new ScanError('a list or object never ends');
}
