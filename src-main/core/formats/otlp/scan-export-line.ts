import { isAscii } from 'node:buffer';
import type { AttrValue, Attrs } from '../../model/row';
import { newRawSpan, type RawEvent, type RawLink, type RawSpan } from './import-spans';
import {
  EMPTY_ATTRS,
  doubleAttr,
  intAttr,
  nanosToSeconds,
  plausibleSeconds,
  setAttr,
  spanKind,
  statusFrom,
} from './otlp-values';
import {
  BAIL,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  JsonBytes,
  NINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  UNKNOWN,
  ZERO,
  keyTable,
} from './json-bytes';
import { asciiText } from '../../bytes/ascii-string-cache';

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
export class ExportLineScanner extends JsonBytes {
  /** the spans of the line being read */
  private spans: RawSpan[] = [];
  private lastResourceBytes: Buffer | null = null;
  private lastResource: Attrs = EMPTY_ATTRS;
  private readonly resources = new Map<string, Attrs>();
  /** attribute lists read before: their bytes, lengths and objects, by slot */
  // not zeroed: a slot's bytes are compared only once its length was written (2 MiB zeroed for
  // each of a folder's 20,000 tiny files was a tenth of their open)
  private readonly repeatBytes = Buffer.allocUnsafeSlow(REPEAT_SLOTS * REPEAT_MAX_BYTES);
  private readonly repeatLength = new Int32Array(REPEAT_SLOTS);
  private readonly repeatAttrs: (Attrs | null)[] = new Array<Attrs | null>(REPEAT_SLOTS).fill(null);

  constructor() {
    super(SITES);
  }

  /** The spans of one line (without its newline), or null to read it with JSON.parse. */
  scan(line: Uint8Array): RawSpan[] | null {
    if (!isAscii(line)) return null;
    this.begin(line);
    this.spans = [];
    try {
      this.ws();
      this.exportRequest();
      this.ws();
      return this.p === this.end ? this.spans : null;
    } catch (error) {
      if (error === BAIL) return null;
      throw error;
    }
  }

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
    const before = this.spans.length;
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
    for (let i = before; i < this.spans.length; i++) this.spans[i].resource = resource;
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
    const text = asciiText(this.b, start, this.p);
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
    const from = this.spans.length;
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
    for (let i = from; i < this.spans.length; i++) this.spans[i].scope = scope;
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
    const span = newRawSpan();
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
    this.spans.push(span);
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

  /** A nanosecond time, string or number, as nanosToSeconds() reads it. */
  private nanos(): number | null {
    return plausibleSeconds(this.rawNanos());
  }

  private rawNanos(): number | null {
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
}

/** Marks a field as read; a field read twice (or under both spellings) goes to JSON.parse. */
function once(seen: number, bit: number): number {
  if (seen & bit) throw BAIL;
  return seen | bit;
}
