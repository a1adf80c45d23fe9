import type { Attrs } from '../../model/row';
import type { RawEvent, RawLink, RawSpan } from './import-spans';
import { EMPTY_ATTRS, statusFrom } from './otlp-values';

/**
 * RawSpans packed to cross threads: numbers in typed arrays (moved, not copied), each distinct
 * string once, and the few objects (resources, attributes, events, links) in one list. A
 * structured clone of the RawSpans themselves would write every field name of every span.
 */
export interface SpanColumns {
  count: number;
  /** per span: REFS references, see FIELD_* */
  refs: Int32Array;
  /** per span: start and end seconds (end NaN when null) */
  times: Float64Array;
  strings: string[];
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
const ATTRS = 9;
const EVENTS = 10;
const LINKS = 11;
const REFS = 12;

export class SpanColumnsWriter {
  private count = 0;
  private refs = new Int32Array(REFS * 1024);
  private times = new Float64Array(2 * 1024);
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly objects: unknown[] = [];
  private readonly objectIds = new Map<unknown, number>();

  /** Spans without a start are dropped here, as the collector would drop them. */
  push(raw: RawSpan): void {
    if (raw.start === null) return;
    if ((this.count + 1) * REFS > this.refs.length) {
      this.refs = grow(this.refs, this.refs.length * 2);
      this.times = grow(this.times, this.times.length * 2);
    }
    const r = this.count * REFS;
    const refs = this.refs;
    refs[r + TRACE] = this.ref(raw.traceId);
    refs[r + SPAN] = this.ref(raw.spanId);
    refs[r + PARENT] = this.ref(raw.parentSpanId);
    refs[r + NAME] = this.ref(raw.name);
    refs[r + KIND] = this.ref(raw.kind);
    refs[r + SCOPE] = this.ref(raw.scope);
    refs[r + RESOURCE] = raw.resource === EMPTY_ATTRS ? 0 : this.sharedObject(raw.resource);
    refs[r + STATUS_CODE] = this.ref(raw.status.code);
    refs[r + STATUS_MESSAGE] = this.ref(raw.status.message);
    refs[r + ATTRS] = raw.attrs === EMPTY_ATTRS ? 0 : this.object(raw.attrs);
    refs[r + EVENTS] = raw.events === null ? 0 : this.object(raw.events);
    refs[r + LINKS] = raw.links === null ? 0 : this.object(raw.links);
    this.times[this.count * 2] = raw.start;
    this.times[this.count * 2 + 1] = raw.end ?? NaN;
    this.count++;
  }

  finish(): { columns: SpanColumns; transfer: ArrayBuffer[] } {
    const refs = this.refs.slice(0, this.count * REFS);
    const times = this.times.slice(0, this.count * 2);
    return {
      columns: { count: this.count, refs, times, strings: this.strings, objects: this.objects },
      transfer: [refs.buffer, times.buffer],
    };
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
  const { refs, times, strings, objects } = columns;
  const value = (ref: number): unknown =>
    ref > 0 ? strings[ref - 1] : ref < 0 ? objects[-ref - 1] : undefined;
  const text = (ref: number): string => value(ref) as string;
  const attrs = (ref: number): Attrs => (ref === 0 ? EMPTY_ATTRS : emptyAsShared(value(ref)));
  const raw: RawSpan = {
    resource: EMPTY_ATTRS,
    scope: '',
    traceId: undefined,
    spanId: undefined,
    parentSpanId: undefined,
    name: '',
    kind: '',
    start: null,
    end: null,
    status: statusFrom(undefined, undefined),
    attrs: EMPTY_ATTRS,
    events: null,
    links: null,
  };
  for (let i = 0; i < columns.count; i++) {
    const r = i * REFS;
    const end = times[i * 2 + 1];
    const events = refs[r + EVENTS] === 0 ? null : (value(refs[r + EVENTS]) as RawEvent[]);
    const links = refs[r + LINKS] === 0 ? null : (value(refs[r + LINKS]) as RawLink[]);
    // a clone turns the shared empty attributes into fresh {}: share them again
    for (const e of events ?? []) e.attrs = emptyAsShared(e.attrs);
    for (const l of links ?? []) l.attrs = emptyAsShared(l.attrs);
    raw.resource = attrs(refs[r + RESOURCE]);
    raw.scope = text(refs[r + SCOPE]);
    raw.traceId = value(refs[r + TRACE]);
    raw.spanId = value(refs[r + SPAN]);
    raw.parentSpanId = value(refs[r + PARENT]);
    raw.name = text(refs[r + NAME]);
    raw.kind = text(refs[r + KIND]);
    raw.start = times[i * 2];
    raw.end = Number.isNaN(end) ? null : end;
    raw.status = statusFrom(text(refs[r + STATUS_CODE]), text(refs[r + STATUS_MESSAGE]));
    raw.attrs = attrs(refs[r + ATTRS]);
    raw.events = events;
    raw.links = links;
    emit(raw);
  }
}

function emptyAsShared(value: unknown): Attrs {
  const attrs = value as Attrs;
  for (const _ in attrs) return attrs;
  return EMPTY_ATTRS;
}

function grow<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const out = new (array.constructor as new (n: number) => T)(length);
  out.set(array);
  return out;
}
