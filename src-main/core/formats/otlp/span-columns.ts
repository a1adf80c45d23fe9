import type { AttrValue, Attrs } from '../../model/row';
import { grownColumn } from '../../model/grown-column';
import { newRawSpan, type RawEvent, type RawLink, type RawSpan } from './import-spans';
import { EMPTY_ATTRS, setAttr, statusFrom } from './otlp-values';

/**
 * RawSpans packed to cross threads: numbers in typed arrays (moved, not copied) and each
 * distinct string once. Attributes, events and links are blocks of the same arrays. A
 * structured clone of the objects themselves writes every key of every object and makes the
 * receiving thread decode and look up each one again: for SGLang's attribute-heavy spans that
 * cost more than reading the lines.
 */
export interface SpanColumns {
  count: number;
  /** per span: REFS references (see TRACE ... LINKS) */
  refs: Int32Array;
  /** per span: start and end seconds (end NaN when null) */
  times: Float64Array;
  /** attribute, event and link blocks (see writeAttrs, writeEvents, writeLinks) */
  blocks: Int32Array;
  /** the numbers those blocks hold */
  numbers: Float64Array;
  strings: string[];
  /** values that are not strings where strings belong, list and map attributes, resources */
  objects: unknown[];
}

// a reference: 0 undefined, k > 0 strings[k - 1], k < 0 objects[-k - 1]
const TRACE = 0;
const SPAN = 1;
const PARENT = 2;
const NAME = 3;
const KIND = 4;
const SCOPE = 5;
const RESOURCE = 6;
const STATUS_CODE = 7;
const STATUS_MESSAGE = 8;
/** a block's offset + 1, or 0 for none (empty attributes, no events, no links) */
const ATTRS = 9;
const EVENTS = 10;
const LINKS = 11;
const REFS = 12;

// the kind of an attribute value in a block
const STRING = 0;
const NUMBER = 1;
const TRUE = 2;
const FALSE = 3;
const NULL = 4;
const OBJECT = 5;

/** attribute blocks remembered on each side to share repeated lists */
const SHARED_BLOCKS = 8192;

/** A growable Int32Array or Float64Array. */
class Growing<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(public array: T) {}

  push(value: number): number {
    if (this.length === this.array.length) this.array = grownColumn(this.array, 0, 2);
    this.array[this.length] = value;
    return this.length++;
  }

  done(): T {
    return this.array.slice(0, this.length) as T;
  }
}

export class SpanColumnsWriter {
  private count = 0;
  private readonly refs = new Growing(new Int32Array(REFS * 1024));
  private readonly times = new Growing(new Float64Array(2 * 1024));
  private readonly blocks = new Growing(new Int32Array(4096));
  private readonly numbers = new Growing(new Float64Array(1024));
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly objects: unknown[] = [];
  private readonly objectIds = new Map<unknown, number>();

  /** Spans without a start are dropped here, as the collector would drop them. */
  push(raw: RawSpan): void {
    if (raw.start === null) return;
    // blocks first: a span's refs are contiguous
    const attrs = this.writeAttrs(raw.attrs);
    const events = raw.events === null ? 0 : this.writeEvents(raw.events);
    const links = raw.links === null ? 0 : this.writeLinks(raw.links);
    const refs = this.refs;
    refs.push(this.ref(raw.traceId));
    refs.push(this.ref(raw.spanId));
    refs.push(this.ref(raw.parentSpanId));
    refs.push(this.ref(raw.name));
    refs.push(this.ref(raw.kind));
    refs.push(this.ref(raw.scope));
    refs.push(raw.resource === EMPTY_ATTRS ? 0 : this.sharedObject(raw.resource));
    refs.push(this.ref(raw.status.code));
    refs.push(this.ref(raw.status.message));
    refs.push(attrs);
    refs.push(events);
    refs.push(links);
    this.times.push(raw.start);
    this.times.push(raw.end ?? NaN);
    this.count++;
  }

  finish(): { columns: SpanColumns; transfer: ArrayBuffer[] } {
    const columns: SpanColumns = {
      count: this.count,
      refs: this.refs.done(),
      times: this.times.done(),
      blocks: this.blocks.done(),
      numbers: this.numbers.done(),
      strings: this.strings,
      objects: this.objects,
    };
    const buffers = [columns.refs, columns.times, columns.blocks, columns.numbers];
    return { columns, transfer: buffers.map((a) => a.buffer as ArrayBuffer) };
  }

  /**
   * [count, then per entry: key, kind, value] where value is a ref, a number's index or 0. An
   * object written before (the scanner shares repeated lists) is its block again, and the
   * reader gives back one object for it.
   */
  private writeAttrs(attrs: Attrs): number {
    if (attrs === EMPTY_ATTRS) return 0;
    let block = this.attrsBlocks.get(attrs);
    if (block === undefined) {
      block = this.writeNewAttrs(attrs);
      // bounded: sharing is about neighbours, and the reader keeps as many
      if (this.attrsBlocks.size >= SHARED_BLOCKS) this.attrsBlocks.clear();
      this.attrsBlocks.set(attrs, block);
    }
    return block;
  }

  private readonly attrsBlocks = new Map<Attrs, number>();

  private writeNewAttrs(attrs: Attrs): number {
    const keys = Object.keys(attrs);
    if (keys.length === 0) return 0;
    const blocks = this.blocks;
    const at = blocks.push(keys.length);
    for (const key of keys) {
      const value = attrs[key];
      blocks.push(this.ref(key));
      if (typeof value === 'string') {
        blocks.push(STRING);
        blocks.push(this.ref(value));
      } else if (typeof value === 'number') {
        blocks.push(NUMBER);
        blocks.push(this.numbers.push(value));
      } else if (value === true || value === false) {
        blocks.push(value ? TRUE : FALSE);
        blocks.push(0);
      } else if (value === null) {
        blocks.push(NULL);
        blocks.push(0);
      } else {
        blocks.push(OBJECT);
        blocks.push(this.object(value));
      }
    }
    return at + 1;
  }

  /** [count, then per event: name, time's index or -1, attributes block] */
  private writeEvents(events: RawEvent[]): number {
    const attrs = events.map((e) => this.writeAttrs(e.attrs));
    const blocks = this.blocks;
    const at = blocks.push(events.length);
    events.forEach((e, k) => {
      blocks.push(this.ref(e.name));
      blocks.push(e.ts === null ? -1 : this.numbers.push(e.ts));
      blocks.push(attrs[k]);
    });
    return at + 1;
  }

  /** [count, then per link: trace id, span id, attributes block] */
  private writeLinks(links: RawLink[]): number {
    const attrs = links.map((l) => this.writeAttrs(l.attrs));
    const blocks = this.blocks;
    const at = blocks.push(links.length);
    links.forEach((l, k) => {
      blocks.push(this.ref(l.traceId));
      blocks.push(this.ref(l.spanId));
      blocks.push(attrs[k]);
    });
    return at + 1;
  }

  /** Strings once each; anything else (a number where an id belongs) as an object. */
  private ref(value: unknown): number {
    if (value === undefined) return 0;
    if (typeof value !== 'string') return this.object(value);
    let id = this.stringIds.get(value);
    if (id === undefined) {
      id = this.strings.push(value);
      this.stringIds.set(value, id);
    }
    return id;
  }

  private object(value: unknown): number {
    return -this.objects.push(value);
  }

  /** Resources are shared by many spans: one copy crosses. */
  private sharedObject(value: unknown): number {
    let id = this.objectIds.get(value);
    if (id === undefined) {
      id = this.object(value);
      this.objectIds.set(value, id);
    }
    return id;
  }
}

/** The RawSpans of `columns`, in order, one reused object at a time (emit copies what it keeps). */
export function readSpanColumns(columns: SpanColumns, emit: (raw: RawSpan) => void): void {
  const { refs, times, blocks, numbers, strings, objects } = columns;
  const value = (ref: number): unknown =>
    ref > 0 ? strings[ref - 1] : ref < 0 ? objects[-ref - 1] : undefined;
  const text = (ref: number): string => value(ref) as string;
  const shared = new Map<number, Attrs>();
  const readAttrs = (block: number): Attrs => {
    if (block === 0) return EMPTY_ATTRS;
    let attrs = shared.get(block);
    if (attrs === undefined) {
      attrs = readNewAttrs(block);
      if (shared.size >= SHARED_BLOCKS) shared.clear();
      shared.set(block, attrs);
    }
    return attrs;
  };
  const readNewAttrs = (block: number): Attrs => {
    let at = block - 1;
    const out: Attrs = {};
    for (let n = blocks[at++]; n > 0; n--) {
      const key = text(blocks[at++]);
      const kind = blocks[at++];
      const payload = blocks[at++];
      const v: AttrValue =
        kind === STRING
          ? text(payload)
          : kind === NUMBER
            ? numbers[payload]
            : kind === TRUE
              ? true
              : kind === FALSE
                ? false
                : kind === NULL
                  ? null
                  : (value(payload) as AttrValue);
      setAttr(out, key, v);
    }
    return out;
  };
  const readEvents = (block: number): RawEvent[] | null => {
    if (block === 0) return null;
    let at = block - 1;
    const out: RawEvent[] = [];
    for (let n = blocks[at++]; n > 0; n--) {
      const name = text(blocks[at++]);
      const ts = blocks[at++];
      out.push({
        name,
        ts: ts < 0 ? null : numbers[ts],
        attrs: readAttrs(blocks[at++]),
      });
    }
    return out;
  };
  const readLinks = (block: number): RawLink[] | null => {
    if (block === 0) return null;
    let at = block - 1;
    const out: RawLink[] = [];
    for (let n = blocks[at++]; n > 0; n--) {
      const traceId = value(blocks[at++]);
      const spanId = value(blocks[at++]);
      out.push({ traceId, spanId, attrs: readAttrs(blocks[at++]) });
    }
    return out;
  };
  const raw = newRawSpan();
  for (let i = 0; i < columns.count; i++) {
    const r = i * REFS;
    const end = times[i * 2 + 1];
    const resource = refs[r + RESOURCE];
    raw.resource = resource === 0 ? EMPTY_ATTRS : (value(resource) as Attrs);
    raw.scope = text(refs[r + SCOPE]);
    raw.traceId = value(refs[r + TRACE]);
    raw.spanId = value(refs[r + SPAN]);
    raw.parentSpanId = value(refs[r + PARENT]);
    raw.name = text(refs[r + NAME]);
    raw.kind = text(refs[r + KIND]);
    raw.start = times[i * 2];
    raw.end = Number.isNaN(end) ? null : end;
    raw.status = statusFrom(text(refs[r + STATUS_CODE]), text(refs[r + STATUS_MESSAGE]));
    raw.attrs = readAttrs(refs[r + ATTRS]);
    raw.events = readEvents(refs[r + EVENTS]);
    raw.links = readLinks(refs[r + LINKS]);
    emit(raw);
  }
}
