import { isAscii } from 'node:buffer';
import type { AttrValue, Attrs } from '../../model/row';
import type { RawEvent, RawLink, RawSpan } from './import-spans';
import {
  EMPTY_ATTRS,
  doubleAttr,
  intAttr,
  nanosToSeconds,
  setAttr,
  spanKind,
  statusFrom,
} from './otlp-values';

/** Thrown (one shared instance, no stack) when a line needs the JSON.parse path. */
const BAIL = Object.freeze({ bail: true });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const MAX_DEPTH = 64;

const CACHE_SIZE = 1 << 14;

// call sites of string(), each remembering its last value
const SITE_TRACE = 0;
const SITE_PARENT = 1;
const SITE_NAME = 2;
const SITE_SCOPE = 3;
const SITE_OTHER = 4;
/** attribute keys and values by position: spans of one kind list the same keys in order */
const SITE_ATTRIBUTE = 5;
const ATTRIBUTE_SITES = 16;
const SITES = SITE_ATTRIBUTE + 2 * ATTRIBUTE_SITES;

// attribute lists shared when their bytes repeat (sharedOrNewAttributes)
const REPEAT_SLOTS = 4096;
const REPEAT_MAX_BYTES = 512;

// field ids: one bit each, so a field read twice is caught with a mask (once())
const UNKNOWN = 0;
const TRACE_ID = 1 << 0;
const SPAN_ID = 1 << 1;
const PARENT_SPAN_ID = 1 << 2;
const NAME = 1 << 3;
const KIND = 1 << 4;
const START = 1 << 5;
const END = 1 << 6;
const STATUS = 1 << 7;
const ATTRIBUTES = 1 << 8;
const EVENTS = 1 << 9;
const LINKS = 1 << 10;
const TIME = 1 << 11;
const CODE = 1 << 12;
const MESSAGE = 1 << 13;
const KEY = 1 << 14;
const VALUE = 1 << 15;
const RESOURCE = 1 << 16;
const SCOPE_SPANS = 1 << 17;
const LEGACY = 1 << 18;
const SCOPE = 1 << 19;
const SPANS = 1 << 20;
const RESOURCE_SPANS = 1 << 21;
const STRING_VALUE = 1 << 22;
const INT_VALUE = 1 << 23;
const DOUBLE_VALUE = 1 << 24;
const BOOL_VALUE = 1 << 25;

/** The keys an object can hold (both spellings), as bytes to compare with, and their ids. */
interface KeyTable {
  bytes: Uint8Array[];
  ids: number[];
}

function keyTable(entries: Record<string, number>): KeyTable {
  const names = Object.keys(entries);
  return { bytes: names.map((n) => Buffer.from(n, 'latin1')), ids: names.map((n) => entries[n]) };
}

const NO_KEYS = keyTable({});
const EXPORT_KEYS = keyTable({ resourceSpans: RESOURCE_SPANS, resource_spans: RESOURCE_SPANS });
const RESOURCE_SPANS_KEYS = keyTable({
  resource: RESOURCE,
  scopeSpans: SCOPE_SPANS,
  scope_spans: SCOPE_SPANS,
  instrumentationLibrarySpans: LEGACY,
});
const RESOURCE_KEYS = keyTable({ attributes: ATTRIBUTES });
const SCOPE_SPANS_KEYS = keyTable({ scope: SCOPE, spans: SPANS, instrumentationLibrary: LEGACY });
const SCOPE_KEYS = keyTable({ name: NAME });
// in the order exporters write them: the first candidates are the likely ones
const SPAN_KEYS = keyTable({
  traceId: TRACE_ID,
  spanId: SPAN_ID,
  parentSpanId: PARENT_SPAN_ID,
  name: NAME,
  kind: KIND,
  startTimeUnixNano: START,
  endTimeUnixNano: END,
  attributes: ATTRIBUTES,
  status: STATUS,
  // read past without a check of the key's bytes
  flags: UNKNOWN,
  events: EVENTS,
  links: LINKS,
  traceState: UNKNOWN,
  droppedAttributesCount: UNKNOWN,
  droppedEventsCount: UNKNOWN,
  droppedLinksCount: UNKNOWN,
  trace_id: TRACE_ID,
  span_id: SPAN_ID,
  parent_span_id: PARENT_SPAN_ID,
  start_time_unix_nano: START,
  end_time_unix_nano: END,
});
const STATUS_KEYS = keyTable({ code: CODE, message: MESSAGE });
const EVENT_KEYS = keyTable({
  timeUnixNano: TIME,
  time_unix_nano: TIME,
  name: NAME,
  attributes: ATTRIBUTES,
});
const LINK_KEYS = keyTable({
  traceId: TRACE_ID,
  trace_id: TRACE_ID,
  spanId: SPAN_ID,
  span_id: SPAN_ID,
  attributes: ATTRIBUTES,
});
const KEY_VALUE_KEYS = keyTable({ key: KEY, value: VALUE });
const ANY_VALUE_KEYS = keyTable({
  stringValue: STRING_VALUE,
  string_value: STRING_VALUE,
  bytesValue: STRING_VALUE,
  bytes_value: STRING_VALUE,
  intValue: INT_VALUE,
  int_value: INT_VALUE,
  doubleValue: DOUBLE_VALUE,
  double_value: DOUBLE_VALUE,
  boolValue: BOOL_VALUE,
  bool_value: BOOL_VALUE,
});
const UNSET = statusFrom(undefined, undefined);
const CACHE_MAX_LENGTH = 64;

/**
 * One OTLP export line read straight from its bytes into RawSpans, without JSON.parse's tree:
 * a million spans arrive wrapped in ten million objects (key/value pairs, AnyValue wrappers,
 * resources repeated per line) that JSON.parse builds and the collector throws away.
 *
 * Exact by construction: the scanner validates JSON as it goes and accepts only the shapes it
 * reads the way the JSON.parse path does (import-spans.ts). Anything else (non-ASCII bytes,
 * a duplicate or unknown-typed field, both spellings of one field, a value of another type,
 * nested array or kvlist attributes, logs) returns null and the caller reads that line with
 * JSON.parse, so every skip reason and every value stays the JSON.parse path's.
 */
export class ExportLineScanner {
  private b: Buffer = Buffer.alloc(0);
  private p = 0;
  private end = 0;
  private depth = 0;
  /** RawSpans reused line after line: the collector copies what it keeps */
  private readonly pool: RawSpan[] = [];
  private count = 0;
  private lastResourceBytes: Buffer | null = null;
  private lastResource: Attrs = EMPTY_ATTRS;
  private readonly cache: (string | null)[] = new Array<string | null>(CACHE_SIZE).fill(null);
  private readonly resources = new Map<string, Attrs>();
  /** attribute lists read before: their bytes, lengths and objects, by slot */
  private readonly repeatBytes = Buffer.alloc(REPEAT_SLOTS * REPEAT_MAX_BYTES);
  private readonly repeatLength = new Int32Array(REPEAT_SLOTS);
  private readonly repeatAttrs: (Attrs | null)[] = new Array<Attrs | null>(REPEAT_SLOTS).fill(null);
  /** the last plain (unescaped) string read per call site */
  private readonly last: string[] = new Array<string>(SITES).fill('');

  /**
   * The spans of one line (without its newline), or null to read it with JSON.parse. The
   * RawSpans are reused by the next call: add them to the collector before scanning on.
   */
  scan(line: Uint8Array): RawSpan[] | null {
    if (!isAscii(line)) return null;
    // a view of exactly the line: a read past its end is undefined, which no check accepts
    this.b = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
    this.p = 0;
    this.end = line.byteLength;
    this.depth = 0;
    this.count = 0;
    try {
      this.ws();
      this.exportRequest();
      this.ws();
      return this.p === this.end ? this.pool.slice(0, this.count) : null;
    } catch (error) {
      if (error === BAIL) return null;
      throw error;
    }
  }

  // ---- the OTLP shapes -------------------------------------------------------------------

  private exportRequest(): void {
    let found = false;
    if (this.enter(OPEN_BRACE)) {
      do {
        if (this.key(EXPORT_KEYS) === RESOURCE_SPANS) {
          if (found) throw BAIL;
          found = true;
          if (this.enter(OPEN_BRACKET))
            do this.resourceSpans();
            while (this.next(CLOSE_BRACKET));
        } else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    // no resourceSpans: the JSON.parse path names the reason (logs, metrics, wrong shape)
    if (!found) throw BAIL;
  }

  private resourceSpans(): void {
    let resource: Attrs = EMPTY_ATTRS;
    let seen = 0;
    const before = this.count;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(RESOURCE_SPANS_KEYS);
        seen = once(seen, key);
        if (key === RESOURCE) resource = this.resource();
        else if (key === SCOPE_SPANS) {
          if (this.enter(OPEN_BRACKET))
            do this.scopeSpans();
            while (this.next(CLOSE_BRACKET));
        } else if (key === LEGACY) throw BAIL;
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    // the resource may come after its spans
    for (let i = before; i < this.count; i++) this.pool[i].resource = resource;
  }

  private resource(): Attrs {
    let attrs: Attrs = EMPTY_ATTRS;
    let seen = 0;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(RESOURCE_KEYS);
        seen = once(seen, key);
        if (key === ATTRIBUTES) attrs = this.sharedAttributes();
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    return attrs;
  }

  /**
   * Resources repeat on every line: one Attrs per distinct text. The same bytes as the last
   * resource's are that resource (they were valid JSON ending where they end) without a walk.
   */
  private sharedAttributes(): Attrs {
    const start = this.p;
    const last = this.lastResourceBytes;
    if (
      last !== null &&
      start + last.length <= this.end &&
      last.compare(this.b, start, start + last.length) === 0
    ) {
      this.p = start + last.length;
      return this.lastResource;
    }
    this.skipValue();
    const text = latin1(this.b, start, this.p);
    let known = this.resources.get(text);
    if (known === undefined) {
      const after = this.p;
      this.p = start;
      known = this.attributes();
      this.p = after;
      this.resources.set(text, known);
    }
    this.lastResourceBytes = Buffer.from(this.b.subarray(start, this.p));
    this.lastResource = known;
    return known;
  }

  private scopeSpans(): void {
    let scope = '';
    let seen = 0;
    const from = this.count;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(SCOPE_SPANS_KEYS);
        seen = once(seen, key);
        if (key === SCOPE) scope = this.scopeName();
        else if (key === SPANS) {
          if (this.enter(OPEN_BRACKET))
            do this.span();
            while (this.next(CLOSE_BRACKET));
        } else if (key === LEGACY) throw BAIL;
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    for (let i = from; i < this.count; i++) this.pool[i].scope = scope;
  }

  private scopeName(): string {
    let name = '';
    let seen = 0;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(SCOPE_KEYS);
        seen = once(seen, key);
        if (key === NAME) name = this.string(SITE_SCOPE);
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    return name;
  }

  private span(): void {
    let span = this.pool[this.count];
    if (span === undefined) span = this.pool[this.count] = newRawSpan();
    else {
      span.resource = EMPTY_ATTRS;
      span.scope = '';
      span.traceId = undefined;
      span.spanId = undefined;
      span.parentSpanId = undefined;
      span.name = '';
      span.kind = 'UNSPECIFIED';
      span.start = null;
      span.end = null;
      span.status = UNSET;
      span.attrs = EMPTY_ATTRS;
      span.events = null;
      span.links = null;
    }
    let seen = 0;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(SPAN_KEYS);
        seen = once(seen, key);
        switch (key) {
          case TRACE_ID:
            span.traceId = this.string(SITE_TRACE);
            break;
          case SPAN_ID:
            span.spanId = this.freshString();
            break;
          case PARENT_SPAN_ID:
            span.parentSpanId = this.string(SITE_PARENT);
            break;
          case NAME:
            span.name = this.string(SITE_NAME);
            break;
          case KIND:
            span.kind = spanKind(
              this.b[this.p] === QUOTE ? this.string(SITE_OTHER) : this.number(),
            );
            break;
          case START:
            span.start = this.nanos();
            break;
          case END:
            span.end = this.nanos();
            break;
          case STATUS:
            span.status = this.status();
            break;
          case ATTRIBUTES:
            span.attrs = this.sharedOrNewAttributes();
            break;
          case EVENTS:
            span.events = [];
            if (this.enter(OPEN_BRACKET))
              do span.events.push(this.event());
              while (this.next(CLOSE_BRACKET));
            break;
          case LINKS:
            span.links = [];
            if (this.enter(OPEN_BRACKET))
              do span.links.push(this.link());
              while (this.next(CLOSE_BRACKET));
            break;
          default:
            this.skipValue();
        }
      } while (this.next(CLOSE_BRACE));
    }
    this.count++;
  }

  private status(): RawSpan['status'] {
    let code: unknown = undefined;
    let message: unknown = undefined;
    let seen = 0;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(STATUS_KEYS);
        seen = once(seen, key);
        if (key === CODE) code = this.b[this.p] === QUOTE ? this.string(SITE_OTHER) : this.number();
        else if (key === MESSAGE) message = this.string(SITE_OTHER);
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    return statusFrom(code, message);
  }

  private event(): RawEvent {
    const event: RawEvent = { name: '', ts: null, attrs: EMPTY_ATTRS };
    let seen = 0;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(EVENT_KEYS);
        seen = once(seen, key);
        if (key === TIME) event.ts = this.nanos();
        else if (key === NAME) event.name = this.string(SITE_OTHER);
        else if (key === ATTRIBUTES) event.attrs = this.sharedOrNewAttributes();
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    return event;
  }

  private link(): RawLink {
    const link: RawLink = { traceId: undefined, spanId: undefined, attrs: EMPTY_ATTRS };
    let seen = 0;
    if (this.enter(OPEN_BRACE)) {
      do {
        const key = this.key(LINK_KEYS);
        seen = once(seen, key);
        if (key === TRACE_ID) link.traceId = this.string(SITE_OTHER);
        else if (key === SPAN_ID) link.spanId = this.string(SITE_OTHER);
        else if (key === ATTRIBUTES) link.attrs = this.sharedOrNewAttributes();
        else this.skipValue();
      } while (this.next(CLOSE_BRACE));
    }
    return link;
  }

  /**
   * Attribute lists with the bytes of one read before give that list's (shared) object: SGLang
   * repeats {bid, batch_size, forward_mode} on every request of a batch and {level, target} on
   * the router's events. A small cache keyed by a sample of the bytes, checked byte for byte;
   * equal bytes are equal JSON, so sharing changes nothing but memory.
   */
  private sharedOrNewAttributes(): Attrs {
    const start = this.p;
    const attrs = this.attributes();
    const end = this.p;
    const length = end - start;
    if (attrs === EMPTY_ATTRS || length > REPEAT_MAX_BYTES) return attrs;
    const b = this.b;
    let hash = length;
    const step = 1 + (length >> 7);
    for (let i = start; i < end; i += step) hash = Math.imul(hash ^ b[i], 0x01000193);
    const slot = (hash ^ (hash >>> 13)) & (REPEAT_SLOTS - 1);
    const at = slot * REPEAT_MAX_BYTES;
    const known = this.repeatAttrs[slot];
    if (
      known !== null &&
      this.repeatLength[slot] === length &&
      this.repeatBytes.compare(b, start, end, at, at + length) === 0
    )
      return known;
    b.copy(this.repeatBytes, at, start, end);
    this.repeatLength[slot] = length;
    this.repeatAttrs[slot] = attrs;
    return attrs;
  }

  /** [{key, value: AnyValue}, ...] as keyValues() makes it. */
  private attributes(): Attrs {
    let out: Attrs | null = null;
    let index = 0;
    if (this.enter(OPEN_BRACKET)) {
      do {
        const site = SITE_ATTRIBUTE + 2 * Math.min(index++, ATTRIBUTE_SITES - 1);
        let name: string | null = null;
        let value: AttrValue = null;
        let seen = 0;
        if (this.enter(OPEN_BRACE)) {
          do {
            const key = this.key(KEY_VALUE_KEYS);
            seen = once(seen, key);
            if (key === KEY) name = this.string(site);
            else if (key === VALUE) value = this.anyValue(site + 1);
            else this.skipValue();
          } while (this.next(CLOSE_BRACE));
        }
        if (name === null) throw BAIL;
        setAttr((out ??= {}), name, value);
      } while (this.next(CLOSE_BRACKET));
    }
    return out ?? EMPTY_ATTRS;
  }

  /** An AnyValue holding one scalar; arrays, kvlists and unusual shapes go to JSON.parse. */
  private anyValue(site: number): AttrValue {
    if (!this.enter(OPEN_BRACE)) return null;
    const key = this.key(ANY_VALUE_KEYS);
    let value: AttrValue;
    const b = this.b;
    switch (key) {
      case STRING_VALUE:
        value = this.string(site);
        break;
      case INT_VALUE:
        value = intAttr(b[this.p] === QUOTE ? this.string(site) : this.number());
        break;
      case DOUBLE_VALUE:
        value = doubleAttr(b[this.p] === QUOTE ? this.string(site) : this.number());
        break;
      case BOOL_VALUE:
        value = this.boolean();
        break;
      default:
        throw BAIL;
    }
    // a second member would make JSON.parse's reading depend on which one wins
    if (this.next(CLOSE_BRACE)) throw BAIL;
    return value;
  }

  // ---- JSON ------------------------------------------------------------------------------

  /** Opens an object or array; false (and closed) when it is empty. */
  private enter(open: number): boolean {
    const b = this.b;
    if (b[this.p] !== open || ++this.depth > MAX_DEPTH) throw BAIL;
    this.p++;
    this.ws();
    if (b[this.p] === open + 2) {
      // '}' is '{' + 2 and ']' is '[' + 2
      this.p++;
      this.depth--;
      return false;
    }
    return true;
  }

  /** After a member or element: true at a comma, false (and closed) at `close`. */
  private next(close: number): boolean {
    this.ws();
    const c = this.b[this.p++];
    if (c === COMMA) {
      this.ws();
      return true;
    }
    if (c === close) {
      this.depth--;
      return false;
    }
    throw BAIL;
  }

  /**
   * A member's key matched against the names this object can hold, then its colon: the id of
   * the name, or UNKNOWN (a key validated and not needed). Comparing with each candidate's
   * bytes validates the key as it matches; no string is made.
   */
  private key(names: KeyTable): number {
    const b = this.b;
    if (b[this.p] !== QUOTE) throw BAIL;
    const start = this.p + 1;
    const first = b[start];
    let id = UNKNOWN;
    let matched = false;
    const bytes = names.bytes;
    for (let k = 0; k < bytes.length; k++) {
      const name = bytes[k];
      if (name[0] !== first) continue;
      const length = name.length;
      if (b[start + length] !== QUOTE) continue;
      let i = 1;
      while (i < length && b[start + i] === name[i]) i++;
      if (i === length) {
        id = names.ids[k];
        matched = true;
        this.p = start + length + 1;
        break;
      }
    }
    if (!matched) this.skipString();
    this.ws();
    if (b[this.p] !== COLON) throw BAIL;
    this.p++;
    this.ws();
    return id;
  }

  private ws(): void {
    const b = this.b;
    let p = this.p;
    // exporters write no whitespace: one comparison in the usual case
    if (b[p] > 0x20) return;
    for (;;) {
      const c = b[p];
      if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) p++;
      else break;
    }
    this.p = p;
  }

  /** A string seen once (a span id): no cache. */
  private freshString(): string {
    const b = this.b;
    let p = this.p;
    if (b[p] !== QUOTE) throw BAIL;
    const start = ++p;
    for (;;) {
      const c = b[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20 || c === undefined) return this.string(SITE_OTHER);
      p++;
    }
    this.p = p + 1;
    return latin1(b, start, p);
  }

  /**
   * A string. Repeats cost no allocation: first the last value read at this call site (trace
   * ids, parents and names mostly repeat their neighbour's), then a cache keyed by the bytes.
   */
  private string(site: number): string {
    const b = this.b;
    if (b[this.p] !== QUOTE) throw BAIL;
    const start = this.p + 1;
    const last = this.last[site];
    const n = last.length;
    if (n > 0 && b[start + n] === QUOTE) {
      let i = 0;
      while (i < n && b[start + i] === last.charCodeAt(i)) i++;
      if (i === n) {
        this.p = start + n + 1;
        return last;
      }
    }
    let p = start;
    const end = this.end;
    let hash = 0x811c9dc5;
    for (;;) {
      if (p >= end) throw BAIL;
      const c = b[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH) return this.escapedString(start);
      if (c < 0x20) throw BAIL;
      hash = Math.imul(hash ^ c, 0x01000193);
      p++;
    }
    this.p = p + 1;
    const length = p - start;
    if (length === 0) return '';
    if (length > CACHE_MAX_LENGTH) return latin1(b, start, p);
    const slot = (hash ^ (hash >>> 15)) & (CACHE_SIZE - 1);
    const known = this.cache[slot];
    if (known !== null && known.length === length) {
      let same = true;
      for (let i = 0; i < length; i++) {
        if (known.charCodeAt(i) !== b[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return (this.last[site] = known);
    }
    const text = latin1(b, start, p);
    this.cache[slot] = text;
    return (this.last[site] = text);
  }

  /** Rare: JSON.parse decodes the escapes of this one string exactly (or rejects them). */
  private escapedString(start: number): string {
    const b = this.b;
    let p = start;
    for (;;) {
      if (p >= this.end) throw BAIL;
      const c = b[p];
      if (c === QUOTE) break;
      if (c < 0x20) throw BAIL;
      p += c === BACKSLASH ? 2 : 1;
    }
    this.p = p + 1;
    try {
      return JSON.parse(latin1(b, start - 1, p + 1)) as string;
    } catch {
      throw BAIL;
    }
  }

  /** A JSON number, validated by the grammar; small integers without a string. */
  private number(): number {
    const b = this.b;
    const start = this.p;
    let p = start;
    if (b[p] === MINUS) p++;
    let value = 0;
    const first = b[p];
    if (first === ZERO) p++;
    else if (first > ZERO && first <= NINE) {
      while (b[p] >= ZERO && b[p] <= NINE) value = value * 10 + (b[p++] - ZERO);
    } else throw BAIL;
    let plain = p - start <= 15;
    if (b[p] === DOT) {
      p++;
      if (!(b[p] >= ZERO && b[p] <= NINE)) throw BAIL;
      while (b[p] >= ZERO && b[p] <= NINE) p++;
      plain = false;
    }
    if (b[p] === 0x65 || b[p] === 0x45) {
      p++;
      if (b[p] === PLUS || b[p] === MINUS) p++;
      if (!(b[p] >= ZERO && b[p] <= NINE)) throw BAIL;
      while (b[p] >= ZERO && b[p] <= NINE) p++;
      plain = false;
    }
    if (p > this.end) throw BAIL;
    this.p = p;
    if (plain) return b[start] === MINUS ? -value : value;
    return Number(latin1(b, start, p));
  }

  /** A nanosecond time, string or number, as nanosToSeconds() reads it. */
  private nanos(): number | null {
    const b = this.b;
    if (b[this.p] !== QUOTE) return nanosToSeconds(this.number());
    // today's times have 19 digits: 10 of seconds and 9 of nanoseconds, read in one pass
    if (b[this.p + 20] === QUOTE) {
      const start = this.p + 1;
      let seconds = 0;
      let nanos = 0;
      let i = 0;
      for (; i < 10; i++) {
        const d = b[start + i] - ZERO;
        if (!(d >= 0 && d <= 9)) break;
        seconds = seconds * 10 + d;
      }
      for (; i < 19; i++) {
        const d = b[start + i] - ZERO;
        if (!(d >= 0 && d <= 9)) break;
        nanos = nanos * 10 + d;
      }
      if (i === 19) {
        this.p = start + 20;
        return seconds + nanos / 1e9;
      }
    }
    // the usual 19 digits: whole seconds and nanoseconds split exactly as nanosToSeconds does
    const start = this.p + 1;
    let p = start;
    while (b[p] >= ZERO && b[p] <= NINE) p++;
    const n = p - start;
    if (b[p] !== QUOTE || n === 0 || n > 25) return nanosToSeconds(this.string(SITE_OTHER));
    const split = n - 9;
    let seconds = 0;
    let nanos = 0;
    for (let i = 0; i < n; i++) {
      const d = b[start + i] - ZERO;
      if (i < split) seconds = seconds * 10 + d;
      else nanos = nanos * 10 + d;
    }
    this.p = p + 1;
    return seconds + nanos / 1e9;
  }

  private boolean(): boolean {
    if (this.literal('true')) return true;
    if (this.literal('false')) return false;
    throw BAIL;
  }

  private literal(word: string): boolean {
    const b = this.b;
    for (let i = 0; i < word.length; i++) if (b[this.p + i] !== word.charCodeAt(i)) return false;
    if (this.p + word.length > this.end) return false;
    this.p += word.length;
    return true;
  }

  /** Any value, checked against the JSON grammar and dropped. */
  private skipValue(): void {
    const c = this.b[this.p];
    if (c >= ZERO && c <= NINE) this.number();
    else if (c === QUOTE) this.skipString();
    else if (c === OPEN_BRACE) {
      if (this.enter(OPEN_BRACE)) {
        do {
          this.key(NO_KEYS);
          this.skipValue();
        } while (this.next(CLOSE_BRACE));
      }
    } else if (c === OPEN_BRACKET) {
      if (this.enter(OPEN_BRACKET))
        do this.skipValue();
        while (this.next(CLOSE_BRACKET));
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) this.number();
    else if (!(this.literal('true') || this.literal('false') || this.literal('null'))) throw BAIL;
  }

  private skipString(): void {
    const b = this.b;
    let p = this.p + 1;
    for (;;) {
      if (p >= this.end) throw BAIL;
      const c = b[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        this.escapedString(this.p + 1);
        return;
      }
      if (c < 0x20) throw BAIL;
      p++;
    }
    this.p = p + 1;
  }
}

function newRawSpan(): RawSpan {
  return {
    resource: EMPTY_ATTRS,
    scope: '',
    traceId: undefined,
    spanId: undefined,
    parentSpanId: undefined,
    name: '',
    kind: 'UNSPECIFIED',
    start: null,
    end: null,
    status: UNSET,
    attrs: EMPTY_ATTRS,
    events: null,
    links: null,
  };
}

/** Bytes known to be ASCII as a string; Buffer's own latin1Slice skips toString's argument checks. */
const latin1: (b: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as { latin1Slice?: unknown }).latin1Slice === 'function'
    ? (b, start, end) =>
        (b as unknown as { latin1Slice(s: number, e: number): string }).latin1Slice(start, end)
    : (b, start, end) => b.toString('latin1', start, end);

/** Marks a field as read; a field read twice (or under both spellings) goes to JSON.parse. */
function once(seen: number, bit: number): number {
  if (seen & bit) throw BAIL;
  return seen | bit;
}
