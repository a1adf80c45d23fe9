import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { countOf } from '../../model/count-of';

/**
 * Reading a Chrome trace without JSON.parse of the whole file: files of hundreds of MB exist,
 * and one JSON.parse needs the file as one string (V8 caps strings near 512 MB) plus the whole
 * object tree at once. Instead the bytes are read in 4 MiB chunks and scanned for the events
 * array's elements (tracking strings, escapes and bracket depth); each element alone goes
 * through JSON.parse and straight to `onEvent`, so memory is the chunk, one event's text and
 * what the importer keeps of each event, never a second copy of the file.
 */
export interface ScanHandlers {
  /**
   * One element of the events array, parsed: returns why it is skipped (the scanner then
   * reports it to onBadEvent with where it starts in the file), or null.
   */
  onEvent(value: unknown, index: number): string | null;
  /** an element that is not valid JSON, or that onEvent skipped */
  onBadEvent(offset: number, index: number, reason: string): void;
  /** a top-level key other than traceEvents, with its value (values over 64 KiB are not parsed) */
  onMetadata?(key: string, value: unknown): void;
  /** bytes scanned so far */
  onProgress?(bytesRead: number): void;
  shouldCancel?(): boolean;
}

export interface ScanResult {
  /** the file is a bare array of events (else an object with traceEvents) */
  bareArray: boolean;
  /** a bare array that ends without its `]`, as the Trace Event Format allows for crashed writers */
  unclosedArray: boolean;
  events: number;
  /** where the file is cut off after its events began (null: it is whole), see TraceCut */
  cut: TraceCut | null;
}

/**
 * A trace cut off after its events began (a writer that crashed, a partial copy, a gzip file cut
 * short): the events before the cut are read, as Perfetto and chrome://tracing do, and this says
 * where it was cut. Its code is the error such a file was before it opened (cutNotice).
 */
export interface TraceCut {
  code: 'chrome-trace/truncated';
  /** where the bytes end: the file's size (of its inflated bytes, for a gzip file) */
  atByte: number;
  /** the events read before the cut: the event cut in two, if any, is event number `events` */
  events: number;
  /** where the event cut in two starts; null when the cut is between events or after them */
  eventStart: number | null;
  /** the events array was read to its `]`: the cut is in the top-level object after it */
  afterEvents: boolean;
  /** a gzip file whose stream ends early: the byte of the file where it ends (ByteSource.cutShort) */
  gzipCutAt?: number;
}

/**
 * The notice of a cut trace, naming `who` (the file, or a GPU profile's rank and its file), the
 * byte and the event where it was cut, headed by its code.
 */
export function cutNotice(cut: TraceCut, who: string): string {
  const where =
    cut.gzipCutAt === undefined
      ? `at byte ${cut.atByte}`
      : `at byte ${cut.atByte} of its inflated bytes (its gzip stream ends early, at byte ${cut.gzipCutAt} of the file)`;
  const read = countOf(cut.events, 'event');
  if (cut.afterEvents) {
    return `${cut.code}: ${who} is cut off ${where}, in the top-level object after its events: opened with its ${read}; what it says after the cut is lost`;
  }
  const inside =
    cut.eventStart === null
      ? `after event ${cut.events - 1}, before the events array is closed`
      : `inside event ${cut.events} (which starts at byte ${cut.eventStart})`;
  return `${cut.code}: ${who} is cut off ${where}, ${inside}: opened with the ${read} before the cut`;
}

const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * The fast path parses runs of events up to this long, not a whole chunk at once: the events
 * of a run not read yet are alive whenever the young generation is collected, and a 4 MiB run's
 * were copied at every collection (most of the collector's time on a GPU rank). Below V8's
 * largest object of its regular spaces (128 KiB) too: a longer run's text (and the copy
 * JSON.parse flattens it to) got pages of its own, new memory each time, a page fault per 4 KiB
 * (512 KiB runs: 408k faults on a 300 MB rank, 0.6 s of system time more than 64 KiB runs).
 */
const RUN_BYTES = 64 * 1024;
const MAX_METADATA_BYTES = 64 * 1024;

/** where the scanner is in the document */
const Mode = { Top: 0, ObjectKey: 1, ObjectColon: 2, ObjectValue: 3, Array: 4, Done: 5 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (b: number) => b === SPACE || b === LF || b === CR || b === TAB;

const decoder = new TextDecoder('utf-8');

/**
 * Scans a Chrome trace (a bare JSON array of events, or an object whose `traceEvents` is
 * one) from `source`. Wrong shapes and a file cut off before its events are coded FormatErrors
 * (`chrome-trace/...`); a file cut off after its events began gives the events before the cut
 * and says where (ScanResult.cut); an element that is not valid JSON is reported and skipped.
 */
export function scanTraceJson(
  source: ByteSource,
  handlers: ScanHandlers,
  chunkBytes = CHUNK_BYTES,
): ScanResult {
  let mode: Mode = Mode.Top;
  let bareArray = false;
  let sawTraceEvents = false;
  let events = 0;
  // the value being scanned (an event, a key, a metadata value)
  let inValue = false;
  let valueStart = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** a primitive (number, true, false, null) ends at a delimiter, not at a bracket */
  let primitive = false;
  let parts: Uint8Array[] = [];
  let partsBytes = 0;
  let key = '';

  const valueText = (chunk: Uint8Array, end: number): string => {
    const tail = chunk.subarray(0, end);
    if (parts.length === 0) return decoder.decode(tail);
    const out = new Uint8Array(partsBytes + tail.length);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    out.set(tail, at);
    return decoder.decode(out);
  };

  // Events that end inside the chunk they start in are parsed together: one decode and one
  // JSON.parse of "[e1,e2,...]" per chunk instead of one of each per event (a fifth less
  // CPU time); when that fails (a bad event among them), each is parsed alone to find it.
  let batchChunk: Uint8Array | null = null;
  const batchFrom: number[] = [];
  const batchTo: number[] = [];
  let batchOffset = 0;

  const deliver = (value: unknown, at: number, index: number): void => {
    const reason = handlers.onEvent(value, index);
    if (reason !== null) handlers.onBadEvent(at, index, reason);
  };

  const emit = (text: string, at: number): void => {
    const index = events++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      handlers.onBadEvent(at, index, `not JSON (${(error as Error).message})`);
      return;
    }
    deliver(value, at, index);
  };

  /**
   * The fast path: the events of `chunk` from `from` (an event's first byte) to `end` (just
   * after the last event that ends within RUN_BYTES, or in the chunk, found by lastEventEnd)
   * parsed by one JSON.parse, without walking their bytes here at all (the byte walk was a third of the
   * reading time). The guess of `end` is safe: `[` + text + `]` parses only when the text is
   * whole elements, so a guess inside a string or an inner object fails, and the chunk is then
   * walked byte by byte as before. Returns whether it parsed.
   */
  const parseRun = (chunk: Uint8Array, from: number, end: number, chunkOffset: number): boolean => {
    let values: unknown;
    try {
      values = JSON.parse(`[${decoder.decode(chunk.subarray(from, end))}]`);
    } catch {
      return false;
    }
    if (!Array.isArray(values)) return false;
    // where each event starts, found only when one is skipped (its message names the byte)
    let starts: number[] | null = null;
    for (let k = 0; k < values.length; k++) {
      const index = events++;
      const value: unknown = values[k];
      // let go of each event once it is read: held by the run's array to its end, every event
      // of a 4 MiB run was alive at each collection of the young generation, and copied
      values[k] = undefined;
      const reason = handlers.onEvent(value, index);
      if (reason === null) continue;
      starts ??= elementStarts(chunk, from, end);
      handlers.onBadEvent(chunkOffset + starts[k], index, reason);
    }
    return true;
  };
  /** the chunk's fast path failed: its rest is walked (a failed try costs one parse) */
  let fastFailed = false;

  const flushBatch = (): void => {
    const count = batchFrom.length;
    if (count === 0 || batchChunk === null) return;
    const chunk = batchChunk;
    let values: unknown[] | null = null;
    try {
      const text = decoder.decode(chunk.subarray(batchFrom[0], batchTo[count - 1]));
      const parsed: unknown = JSON.parse(`[${text}]`);
      if (Array.isArray(parsed) && parsed.length === count) values = parsed;
    } catch {
      // a bad event among them: each is parsed alone below
    }
    for (let k = 0; k < count; k++) {
      const at = batchOffset + batchFrom[k];
      if (values !== null) {
        const value = values[k];
        values[k] = undefined; // let go of as it is read (parseRun)
        deliver(value, at, events++);
      } else emit(decoder.decode(chunk.subarray(batchFrom[k], batchTo[k])), at);
    }
    batchFrom.length = 0;
    batchTo.length = 0;
    batchChunk = null;
  };

  /** a value ended at `end` (exclusive) of `chunk`, whose own start was `from` in it */
  const finishValue = (chunk: Uint8Array, from: number, end: number): void => {
    inValue = false;
    if (mode === Mode.Array && parts.length === 0) {
      if (batchChunk !== chunk) {
        flushBatch();
        batchChunk = chunk;
        batchOffset = valueStart - from;
      }
      batchFrom.push(from);
      batchTo.push(end);
      return;
    }
    const text =
      parts.length === 0 ? decoder.decode(chunk.subarray(from, end)) : valueText(chunk, end);
    const size = partsBytes + end - from;
    parts = [];
    partsBytes = 0;
    if (mode === Mode.Array) {
      flushBatch();
      emit(text, valueStart);
    } else if (mode === Mode.ObjectKey) {
      try {
        key = JSON.parse(text) as string;
      } catch {
        // a key that is not a JSON string (a raw control character in it): not traceEvents,
        // so its value is read past as broken metadata is
        key = '';
      }
      mode = Mode.ObjectColon;
    } else {
      if (handlers.onMetadata && size <= MAX_METADATA_BYTES) {
        try {
          handlers.onMetadata(key, JSON.parse(text));
        } catch {
          // metadata beside the events is optional: a broken value is ignored
        }
      }
      mode = Mode.ObjectKey;
    }
  };

  let offset = 0;
  // one buffer read into for every chunk (nothing holds a chunk past its turn: a value that
  // goes on into the next keeps a copy of its part): a new one per chunk was fresh memory
  const window = new Uint8Array(Math.min(chunkBytes, source.size));
  while (offset < source.size && mode !== Mode.Done) {
    if (handlers.shouldCancel?.()) throw new FormatError('open/cancelled', 'cancelled');
    const chunk = source.read(offset, chunkBytes, window);
    if (chunk.length === 0) break;
    fastFailed = false;
    const n = chunk.length;
    // where the value in progress starts in this chunk (0 when it began in an earlier one)
    let from = 0;
    let i = 0;
    while (i < n && mode !== Mode.Done) {
      if (inValue) {
        // the hot loop: find the end of the current value
        if (primitive) {
          while (i < n) {
            const b = chunk[i];
            if (b === COMMA || b === CLOSE_BRACKET || b === CLOSE_BRACE || isSpace(b)) break;
            i++;
          }
          if (i < n) finishValue(chunk, from, i);
          continue;
        }
        while (i < n) {
          const b = chunk[i++];
          if (inString) {
            if (escaped) escaped = false;
            else if (b === BACKSLASH) escaped = true;
            else if (b === QUOTE) {
              inString = false;
              if (depth === 0) break;
            }
          } else if (b === QUOTE) inString = true;
          else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
          else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
            if (--depth === 0) break;
          }
        }
        if (!inString && depth === 0) finishValue(chunk, from, i);
        continue;
      }
      const b = chunk[i];
      if (isSpace(b) || (mode === Mode.Top && (b === 0xef || b === 0xbb || b === 0xbf))) {
        i++; // whitespace, or a UTF-8 byte order mark before the document
        continue;
      }
      switch (mode as Mode) {
        case Mode.Top:
          if (b === OPEN_BRACKET) {
            bareArray = true;
            mode = Mode.Array;
          } else if (b === OPEN_BRACE) mode = Mode.ObjectKey;
          else {
            throw new FormatError(
              'chrome-trace/not-json',
              'not a Chrome trace: it starts with neither [ nor {',
              offset + i,
            );
          }
          i++;
          continue;
        case Mode.ObjectKey:
          if (b === COMMA) {
            i++;
            continue;
          }
          if (b === CLOSE_BRACE) {
            mode = Mode.Done;
            i++;
            continue;
          }
          if (b !== QUOTE) {
            throw new FormatError(
              'chrome-trace/bad-json',
              'expected a key in the top-level object',
              offset + i,
            );
          }
          break; // a key: scanned as a string value below
        case Mode.ObjectColon:
          if (b !== COLON) {
            throw new FormatError(
              'chrome-trace/bad-json',
              `expected : after the key "${key}"`,
              offset + i,
            );
          }
          i++;
          mode = Mode.ObjectValue;
          continue;
        case Mode.ObjectValue:
          if (key === 'traceEvents') {
            if (b !== OPEN_BRACKET) {
              throw new FormatError(
                'chrome-trace/trace-events-not-array',
                'traceEvents is not an array',
                offset + i,
              );
            }
            sawTraceEvents = true;
            mode = Mode.Array;
            i++;
            continue;
          }
          break; // a metadata value, scanned below
        case Mode.Array:
          if (b === COMMA) {
            i++;
            continue;
          }
          if (b === CLOSE_BRACKET) {
            flushBatch();
            mode = bareArray ? Mode.Done : Mode.ObjectKey;
            i++;
            continue;
          }
          if (b === OPEN_BRACE && !fastFailed) {
            // a run of up to RUN_BYTES (to the chunk's last event when none ends within that)
            let end = lastEventEnd(chunk, i, i + RUN_BYTES);
            if (end <= i) end = lastEventEnd(chunk, i);
            if (end > i) {
              flushBatch();
              if (parseRun(chunk, i, end, offset)) {
                i = end;
                continue;
              }
            }
            fastFailed = true;
          }
          break; // an event
      }
      // the start of a value: an event, a key or a metadata value. A closing byte here (a stray
      // `}` after a broken event swallowed the array's `]`) would be a value of no bytes, read
      // again and again without moving on: the structure is broken, say so
      if (b === CLOSE_BRACE || b === CLOSE_BRACKET || b === COMMA) {
        throw new FormatError(
          'chrome-trace/bad-json',
          `unexpected ${String.fromCharCode(b)} where ${mode === Mode.Array ? 'an event' : 'a value'} should start`,
          offset + i,
        );
      }
      inValue = true;
      valueStart = offset + i;
      from = i;
      depth = 0;
      inString = false;
      escaped = false;
      primitive = b !== OPEN_BRACE && b !== OPEN_BRACKET && b !== QUOTE;
      if (!primitive) {
        // consume the opening byte here: the hot loop counts depth from 1 (or opens a string)
        if (b === QUOTE) inString = true;
        else depth = 1;
        i++;
      }
    }
    flushBatch();
    if (inValue) {
      parts.push(chunk.slice(from));
      partsBytes += n - from;
    }
    offset += n;
    handlers.onProgress?.(offset);
  }
  let cut: TraceCut | null = null;
  /** cut off after the events began: the events before the cut are kept (TraceCut) */
  const cutAt = (eventStart: number | null, afterEvents: boolean): TraceCut => ({
    code: 'chrome-trace/truncated',
    atByte: source.size,
    events,
    eventStart,
    afterEvents,
    ...(source.cutShort === undefined ? {} : { gzipCutAt: source.cutShort }),
  });
  if (inValue && primitive && mode === Mode.Array) {
    // a number right before the end of a bare array that lost its ]: still a (bad) event
    finishValue(new Uint8Array(0), 0, 0);
  } else if (inValue && mode === Mode.Array && events === 0) {
    // cut inside its first event: nothing to open, the file fails as a whole
    throw new FormatError(
      'chrome-trace/truncated',
      'the file is cut off inside its first event: no event is whole',
      valueStart,
    );
  } else if (inValue && mode === Mode.Array) {
    cut = cutAt(valueStart, false);
  } else if (inValue && sawTraceEvents) {
    // inside a key or value after the events array: every event was read
    cut = cutAt(null, true);
  } else if (inValue) {
    throw new FormatError(
      'chrome-trace/truncated',
      'the file is cut off: it ends inside the top-level object, before its events',
      valueStart,
    );
  }
  if (mode === Mode.Top) {
    throw new FormatError('chrome-trace/empty', 'the file holds no JSON', 0);
  }
  if (!bareArray && !sawTraceEvents) {
    throw new FormatError(
      'chrome-trace/no-trace-events',
      'the top-level object has no traceEvents array',
      0,
    );
  }
  // between the events of an object's array, or after them before its }: a bare array that
  // lost its ] is not cut (the format allows it: unclosedArray)
  if (cut === null && mode !== Mode.Done && !(bareArray && mode === Mode.Array)) {
    cut = cutAt(null, mode !== Mode.Array);
  }
  return {
    bareArray,
    unclosedArray: cut === null && bareArray && mode === Mode.Array,
    events,
    cut,
  };
}

/**
 * Just after the last `}` of `chunk` (past `from`, before `before`) that is followed by `,` and
 * `{`, blanks between: where an event ends and the next begins in a Kineto or Chrome writer's output; -1
 * when there is none. A guess (the bytes may be inside a string): parseRun checks it.
 */
function lastEventEnd(chunk: Uint8Array, from: number, before = chunk.length): number {
  let j = Math.min(before, chunk.length);
  while ((j = chunk.lastIndexOf(OPEN_BRACE, j - 1)) > from) {
    let k = j - 1;
    while (k > from && isSpace(chunk[k])) k--;
    if (chunk[k] !== COMMA) continue;
    k--;
    while (k > from && isSpace(chunk[k])) k--;
    if (chunk[k] === CLOSE_BRACE) return k + 1;
  }
  return -1;
}

/** Where each element of `chunk[from, end)` starts (whole elements, as parseRun found). */
function elementStarts(chunk: Uint8Array, from: number, end: number): number[] {
  const starts: number[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = from; i < end; i++) {
    const b = chunk[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (b === BACKSLASH) escaped = true;
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (depth === 0 && b !== COMMA && !isSpace(b)) {
      starts.push(i);
      // a primitive element runs to the next comma
      if (b !== OPEN_BRACE && b !== OPEN_BRACKET && b !== QUOTE) {
        while (i + 1 < end && chunk[i + 1] !== COMMA && !isSpace(chunk[i + 1])) i++;
        continue;
      }
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
  }
  return starts;
}
