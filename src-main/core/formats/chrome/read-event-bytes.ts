import type { ChromeId } from './chrome-trace';

/**
 * One Chrome trace event read from its bytes without JSON.parse: the fields the rows and the
 * GPU figures need are decoded in place (names through a table keyed by their bytes, numbers
 * by digits), and `args` is only walked: its range is kept for a later parse (RawAttrs), with
 * the two values HTA's figures read of it (`stream`, `correlation`). JSON.parse made an object
 * per event and per args, kept to the end of the open: the most of a GPU rank's time (the
 * collector's included) and peak.
 *
 * The walk checks the event's JSON as JSON.parse would (strings, escapes, numbers, literals,
 * nesting), so a raw args text always parses later. Whatever it does not read itself, it
 * declines (returns -1) and the scanner hands that event to JSON.parse and the general
 * importer: events cut by a chunk's end, escapes in names, ts or dur written as strings,
 * `id2`, metadata and counters (whose args are read whole), args nested deep enough to be cut.
 */
export interface EventFields {
  ph: string;
  pid: ChromeId;
  tid: ChromeId;
  ts: number;
  /** null: no dur */
  dur: number | null;
  name: string;
  cat: string | null;
  /** `id` (a number or a string), null without */
  id: ChromeId | null;
  bindId: ChromeId | null;
  flowOut: boolean;
  flowIn: boolean;
  /** `s` (an instant's scope) and `bp` (a flow end's binding point), null when not a string */
  scope: string | null;
  bp: string | null;
  /** where args' JSON text starts in the chunk and how long it is; -1: no args (or {}) */
  argsFrom: number;
  argsLength: number;
  /** args' `stream` and `correlation` when numbers */
  stream: number | null;
  correlation: number | null;
}

/** phases whose events are read here: the rest (M, C, ...) read their args whole */
const READ_PHASES = new Set(['X', 'B', 'E', 'i', 'I', 'R', 'b', 'e', 'n', 's', 't', 'f']);

/** args nested deeper than this (args itself 1) are left to the importer, which cuts them */
const MAX_ARGS_DEPTH = 30;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number) => b >= ZERO && b <= NINE;

/** Top-level keys read, by a code: their bytes compared once per key. */
const KEYS = [
  'ph',
  'pid',
  'tid',
  'ts',
  'dur',
  'name',
  'cat',
  'id',
  'bind_id',
  'flow_out',
  'flow_in',
  's',
  'bp',
  'args',
  'id2',
] as const;
const KEY_BYTES = KEYS.map((k) => new TextEncoder().encode(k));
const ARGS_KEY = KEYS.indexOf('args');
const ARG_KEYS = ['stream', 'correlation'].map((k) => new TextEncoder().encode(k));

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

const decoder = new TextDecoder('utf-8');

/**
 * Strings by their UTF-8 bytes: a name met a million times is decoded once, and no string is
 * made for it again. Open addressing on a hash of the bytes; past `limit` entries a name is
 * decoded each time (names that never repeat are not worth an entry).
 */
export class BytesInterner {
  private slots = new Int32Array(1024).fill(-1);
  private readonly keys: Uint8Array[] = [];
  private readonly strings: string[] = [];

  constructor(private readonly limit = 200_000) {}

  get(chunk: Uint8Array, from: number, end: number): string {
    const hash = hashOf(chunk, from, end);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    const length = end - from;
    for (;;) {
      const entry = this.slots[slot];
      if (entry < 0) break;
      const key = this.keys[entry];
      if (key.length === length && sameBytes(key, chunk, from)) return this.strings[entry];
      slot = (slot + 1) & mask;
    }
    const text = decoder.decode(chunk.subarray(from, end));
    if (this.strings.length >= this.limit) return text;
    this.slots[slot] = this.strings.length;
    this.keys.push(chunk.slice(from, end));
    this.strings.push(text);
    if (this.strings.length * 2 > this.slots.length) this.grow();
    return text;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    this.keys.forEach((key, entry) => {
      let slot = hashOf(key, 0, key.length) & mask;
      while (slots[slot] >= 0) slot = (slot + 1) & mask;
      slots[slot] = entry;
    });
    this.slots = slots;
  }
}

/**
 * FNV-1a of a name's length and its first and last 16 bytes: kernel names run to hundreds of
 * bytes and differ mostly at their ends (template arguments); equal hashes are compared whole.
 */
function hashOf(bytes: Uint8Array, from: number, end: number): number {
  let hash = Math.imul(0x811c9dc5 ^ (end - from), 0x01000193);
  if (end - from <= 32) {
    for (let i = from; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
    return hash;
  }
  for (let i = from; i < from + 16; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  for (let i = end - 16; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash;
}

function sameBytes(key: Uint8Array, chunk: Uint8Array, from: number): boolean {
  for (let k = 0; k < key.length; k++) if (key[k] !== chunk[from + k]) return false;
  return true;
}

/**
 * Reads events from their bytes (see above): one reader per file, its chunks handed in turn.
 * `strings` interns names, categories and string ids.
 */
export class EventByteReader {
  private c: Uint8Array = new Uint8Array(0);
  /** whether the last string() held an escape */
  private escaped = false;
  /** a number's value, from the last number() */
  private value = 0;
  /** the kinds of the containers value_ is in (one list for every value) */
  private readonly stack: number[] = [];

  constructor(private readonly strings: BytesInterner) {}

  /**
   * Reads the event that starts at `chunk[from]` (a `{`) into `out`; returns the index just
   * after its `}`, or -1 to leave it to JSON.parse. Each `read` helper below takes the index
   * of a value's first byte and returns the index after it, or -1 (not JSON, past the chunk's
   * end, or not read here).
   */
  read(chunk: Uint8Array, from: number, out: EventFields): number {
    this.c = chunk;
    return this.event(from, this.strings, out);
  }

  private space(i: number): number {
    const c = this.c;
    while (i < c.length && isSpace(c[i])) i++;
    return i;
  }

  event(from: number, strings: BytesInterner, out: EventFields): number {
    const c = this.c;
    out.ph = '';
    out.pid = 0;
    out.tid = NaN;
    out.ts = NaN;
    out.dur = null;
    out.name = '';
    out.cat = null;
    out.id = null;
    out.bindId = null;
    out.flowOut = false;
    out.flowIn = false;
    out.scope = null;
    out.bp = null;
    out.argsFrom = -1;
    out.argsLength = 0;
    out.stream = null;
    out.correlation = null;
    let hasTid = false;
    let i = this.space(from + 1);
    if (i >= c.length) return -1;
    if (c[i] === CLOSE_BRACE) return -1; // {} has no ph: the importer says so
    for (;;) {
      if (c[i] !== QUOTE) return -1;
      const keyStart = i + 1;
      i = this.string(i);
      if (i < 0 || this.escaped) return -1;
      const key = keyCode(c, keyStart, i - 1);
      i = this.space(i);
      if (c[i] !== COLON) return -1;
      i = this.space(i + 1);
      if (i >= c.length) return -1;
      const at = i;
      const b = c[i];
      if (key === ARGS_KEY && b === OPEN_BRACE) {
        i = this.args(i, out);
        if (i < 0) return -1;
      } else {
        i = this.value_(i);
        if (i < 0) return -1;
        switch (key) {
          case 0: // ph
            if (b !== QUOTE || this.escaped) return -1;
            out.ph = strings.get(c, at + 1, i - 1);
            break;
          case 1: // pid
          case 2: // tid
          case 7: // id
          case 8: {
            // bind_id
            let id: ChromeId;
            if (b === QUOTE) {
              if (this.escaped) return -1;
              id = strings.get(c, at + 1, i - 1);
            } else if (b === MINUS || isDigit(b)) id = this.value;
            else if (key === 7 || key === 8) {
              // an id that is neither: none (as the importer reads it)
              if (key === 7) out.id = null;
              else out.bindId = null;
              break;
            } else return -1;
            if (key === 1) out.pid = id;
            else if (key === 2) {
              out.tid = id;
              hasTid = true;
            } else if (key === 7) out.id = id;
            else out.bindId = id;
            break;
          }
          case 3: // ts (a string, or too large to be finite: the importer says what is wrong)
            if (!(b === MINUS || isDigit(b)) || !Number.isFinite(this.value)) return -1;
            out.ts = this.value;
            break;
          case 4: // dur
            if (!(b === MINUS || isDigit(b)) || !Number.isFinite(this.value)) return -1;
            out.dur = this.value;
            break;
          case 5: // name
            if (b !== QUOTE || this.escaped) return -1;
            out.name = strings.get(c, at + 1, i - 1);
            break;
          case 6: // cat
            if (b === QUOTE) {
              if (this.escaped) return -1;
              out.cat = strings.get(c, at + 1, i - 1);
            } else out.cat = null;
            break;
          case 9: // flow_out
            out.flowOut = c[at] === 0x74; // true
            break;
          case 10: // flow_in
            out.flowIn = c[at] === 0x74;
            break;
          case 11: // s
          case 12: // bp
            {
              let text: string | null = null;
              if (b === QUOTE) {
                if (this.escaped) return -1;
                text = strings.get(c, at + 1, i - 1);
              }
              if (key === 11) out.scope = text;
              else out.bp = text;
            }
            break;
          case 13: // args, not an object: none
            out.argsFrom = -1;
            out.argsLength = 0;
            out.stream = null;
            out.correlation = null;
            break;
          case 14: // id2
            return -1;
        }
      }
      i = this.space(i);
      if (i >= c.length) return -1;
      if (c[i] === CLOSE_BRACE) break;
      if (c[i] !== COMMA) return -1;
      i = this.space(i + 1);
    }
    if (out.ph === '' || !READ_PHASES.has(out.ph) || Number.isNaN(out.ts)) return -1;
    if (!hasTid) out.tid = out.pid;
    return i + 1;
  }

  /** args: an object, walked; its stream and correlation read; its range kept */
  private args(from: number, out: EventFields): number {
    const c = this.c;
    out.stream = null;
    out.correlation = null;
    let i = this.space(from + 1);
    if (i >= c.length) return -1;
    if (c[i] === CLOSE_BRACE) {
      out.argsFrom = -1;
      out.argsLength = 0;
      return i + 1;
    }
    for (;;) {
      if (c[i] !== QUOTE) return -1;
      const keyStart = i + 1;
      i = this.string(i);
      if (i < 0) return -1;
      const argKey = this.escaped ? -1 : argKeyCode(c, keyStart, i - 1);
      i = this.space(i);
      if (c[i] !== COLON) return -1;
      i = this.space(i + 1);
      if (i >= c.length) return -1;
      const b = c[i];
      i = this.value_(i);
      if (i < 0) return -1;
      if (argKey >= 0) {
        const n = b === MINUS || isDigit(b) ? this.value : null;
        if (argKey === 0) out.stream = n;
        else out.correlation = n;
      }
      i = this.space(i);
      if (i >= c.length) return -1;
      if (c[i] === CLOSE_BRACE) break;
      if (c[i] !== COMMA) return -1;
      i = this.space(i + 1);
    }
    out.argsFrom = from;
    out.argsLength = i + 1 - from;
    return i + 1;
  }

  /**
   * Any JSON value, checked: containers walked with a stack of their kinds (no recursion),
   * declined past MAX_ARGS_DEPTH levels.
   */
  private value_(from: number): number {
    const c = this.c;
    const n = c.length;
    const b0 = c[from];
    // most values are strings and numbers: no stack for them
    if (b0 !== OPEN_BRACE && b0 !== OPEN_BRACKET) return this.primitive(from);
    const stack = this.stack;
    stack.length = 0;
    let i = from;
    for (;;) {
      // at a value's first byte
      const b = c[i];
      if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        stack.push(b);
        if (stack.length > MAX_ARGS_DEPTH) return -1;
        i = this.space(i + 1);
        if (i >= n) return -1;
        if (c[i] !== (b === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
          if (b === OPEN_BRACE) i = this.key(i);
          if (i < 0) return -1;
          continue;
        }
        stack.pop();
        i++;
      } else {
        i = this.primitive(i);
        if (i < 0) return -1;
      }
      // after a value: the next slot of its container, or the container's end
      for (;;) {
        if (stack.length === 0) return i;
        i = this.space(i);
        if (i >= n) return -1;
        const top = stack[stack.length - 1];
        if (c[i] === COMMA) {
          i = this.space(i + 1);
          if (top === OPEN_BRACE) i = this.key(i);
          if (i < 0 || i >= n) return -1;
          break;
        }
        if (c[i] !== (top === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) return -1;
        stack.pop();
        i++;
      }
    }
  }

  /** an object's key and colon: the index of its value's first byte */
  private key(from: number): number {
    const c = this.c;
    if (c[from] !== QUOTE) return -1;
    let i = this.string(from);
    if (i < 0) return -1;
    i = this.space(i);
    if (c[i] !== COLON) return -1;
    i = this.space(i + 1);
    return i < c.length ? i : -1;
  }

  private primitive(from: number): number {
    const b = this.c[from];
    if (b === QUOTE) return this.string(from);
    if (b === MINUS || isDigit(b)) return this.number(from);
    if (b === 0x74) return this.literal(from, TRUE);
    if (b === 0x66) return this.literal(from, FALSE);
    if (b === 0x6e) return this.literal(from, NULL);
    return -1;
  }

  private literal(from: number, word: Uint8Array): number {
    const c = this.c;
    if (from + word.length > c.length) return -1;
    for (let k = 0; k < word.length; k++) if (c[from + k] !== word[k]) return -1;
    return from + word.length;
  }

  /** a string from its opening quote: the index after its closing one; escapes checked */
  private string(from: number): number {
    const c = this.c;
    const n = c.length;
    let i = from + 1;
    this.escaped = false;
    while (i < n) {
      const b = c[i];
      if (b === QUOTE) return i + 1;
      if (b < 0x20) return -1;
      if (b === BACKSLASH) {
        this.escaped = true;
        const e = c[i + 1];
        if (e === 0x75) {
          // \uXXXX
          if (i + 6 > n) return -1;
          for (let k = 2; k < 6; k++) if (!isHex(c[i + k])) return -1;
          i += 6;
          continue;
        }
        if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || ESCAPES.includes(e))) return -1;
        i += 2;
        continue;
      }
      i++;
    }
    return -1;
  }

  /**
   * A JSON number (its grammar checked) into `value`: whole and decimal numbers of at most 15
   * significant digits and a small exponent exactly as JSON.parse reads them (an exact integer
   * divided or multiplied by an exact power of ten rounds once), the rest through Number().
   */
  private number(from: number): number {
    const c = this.c;
    const n = c.length;
    let i = from;
    const negative = c[i] === MINUS;
    if (negative) i++;
    if (i >= n || !isDigit(c[i])) return -1;
    let mantissa = 0;
    let digits = 0;
    if (c[i] === ZERO) {
      i++;
      if (i < n && isDigit(c[i])) return -1;
    } else {
      while (i < n && isDigit(c[i])) {
        mantissa = mantissa * 10 + (c[i] - ZERO);
        digits++;
        i++;
      }
    }
    let scale = 0;
    if (i < n && c[i] === DOT) {
      i++;
      if (i >= n || !isDigit(c[i])) return -1;
      while (i < n && isDigit(c[i])) {
        mantissa = mantissa * 10 + (c[i] - ZERO);
        if (mantissa !== 0) digits++;
        scale++;
        i++;
      }
    }
    let exact = true;
    if (i < n && (c[i] === 0x65 || c[i] === 0x45)) {
      exact = false;
      i++;
      if (i < n && (c[i] === 0x2b || c[i] === MINUS)) i++;
      if (i >= n || !isDigit(c[i])) return -1;
      while (i < n && isDigit(c[i])) i++;
    }
    // a number that runs to the chunk's end may go on in the next: left to the general path
    if (i >= n) return -1;
    if (exact && digits <= 15 && scale <= 22) {
      const v = scale === 0 ? mantissa : mantissa / POW10[scale];
      this.value = negative ? -v : v;
    } else {
      let text = '';
      for (let k = from; k < i; k++) text += String.fromCharCode(c[k]);
      this.value = Number(text);
    }
    return i;
  }
}

const ESCAPES = [0x62, 0x66, 0x6e, 0x72, 0x74]; // b f n r t
const TRUE = new TextEncoder().encode('true');
const FALSE = new TextEncoder().encode('false');
const NULL = new TextEncoder().encode('null');

const isHex = (b: number) =>
  (b >= ZERO && b <= NINE) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/** KEYS' codes by length, then first byte: a key is compared with at most a few */
const KEYS_BY_LENGTH: number[][] = [];
KEY_BYTES.forEach((key, k) => (KEYS_BY_LENGTH[key.length] ??= []).push(k));

/** the code of a top-level key (its index in KEYS), -1 for one not read */
function keyCode(c: Uint8Array, from: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - from];
  if (candidates === undefined) return -1;
  for (let k = 0; k < candidates.length; k++) {
    const key = KEY_BYTES[candidates[k]];
    if (key[0] === c[from] && sameBytes(key, c, from)) return candidates[k];
  }
  return -1;
}

function argKeyCode(c: Uint8Array, from: number, end: number): number {
  const length = end - from;
  // "stream" (6) and "correlation" (11) only
  if (length !== 6 && length !== 11) return -1;
  for (let k = 0; k < ARG_KEYS.length; k++) {
    const key = ARG_KEYS[k];
    if (key.length === length && sameBytes(key, c, from)) return k;
  }
  return -1;
}
