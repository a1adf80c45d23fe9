import type { Attrs, PointItem, SpanItem } from '../../model/row';
import {
  EMPTY_ATTRS,
  field,
  keyValues,
  nanosToSeconds,
  normaliseId,
  spanKind,
  statusFrom,
  statusOf,
  type Status,
} from './otlp-values';

export interface SpanExtras {
  /** the span's events as the markers they become (lane and depth set with the row) */
  events: PointItem[] | null;
  /** the span's links as its item shows them (dangling decided with the rows) */
  links: SpanLink[] | null;
}

export type SpanLink = NonNullable<SpanItem['links']>[number];

type Otel = NonNullable<SpanItem['otel']>;

/**
 * Spans as they are read, each already the row item it becomes (lane, depth, parent name and
 * links are filled in when its row is built), grouped by trace in reading order. Events and
 * links wait beside their span until then. A span is one object from the line it was read on
 * to the row that shows it: a million spans cannot afford a reader's copy and a row's copy.
 */
export class SpanCollector {
  readonly byTrace = new Map<string, SpanItem[]>();
  /** events and links of a trace's spans, at the spans' positions in byTrace (few spans have them) */
  readonly extrasByTrace = new Map<string, SpanExtras[]>();
  spans = 0;
  eventCount = 0;
  linkCount = 0;
  readonly services = new Set<string>();
  /** bootstrap_room -> the first trace that has it */
  private readonly roomTraces = new Map<string, string>();
  /** rooms whose PD halves are separate traces (no router above them): joinable into one row */
  readonly splitRooms = new Set<string>();
  private readonly shared = new SharedValues();
  /**
   * With a sink, spans go there instead of into this collector (a helper thread reading part
   * of a file hands them on); the reading itself is the same.
   */
  constructor(private readonly sink: ((raw: RawSpan) => void) | null = null) {}

  private noteRoom(room: string, traceId: string): void {
    const first = this.roomTraces.get(room);
    if (first === undefined) this.roomTraces.set(room, traceId);
    else if (first !== traceId) this.splitRooms.add(room);
  }

  private lastTraceId: string | null = null;
  private lastTrace: SpanItem[] = [];
  private lastService = '';
  private lastResource: Attrs | null = null;
  private lastResourceService = '';

  /** One export line; returns why the line is skipped, or null. */
  importExport(parsed: unknown): string | null {
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return 'wrong shape (not an object)';
    const o = parsed as Record<string, unknown>;
    const resourceSpans = field(o, 'resourceSpans', 'resource_spans');
    if (resourceSpans === undefined) {
      if ('resourceLogs' in o || 'resource_logs' in o) return 'not a trace export (logs)';
      if ('resourceMetrics' in o || 'resource_metrics' in o) return 'not a trace export (metrics)';
      return 'wrong shape (no resourceSpans)';
    }
    if (!Array.isArray(resourceSpans)) return 'wrong shape (resourceSpans is not a list)';
    for (const rs of resourceSpans) {
      if (!rs || typeof rs !== 'object') continue;
      const rso = rs as Record<string, unknown>;
      const resource = this.shared.resource(
        (rso.resource as { attributes?: unknown } | undefined)?.attributes,
      );
      const scopeSpans = field(rso, 'scopeSpans', 'scope_spans') ?? rso.instrumentationLibrarySpans;
      if (!Array.isArray(scopeSpans)) continue;
      for (const ss of scopeSpans) {
        if (!ss || typeof ss !== 'object') continue;
        const sso = ss as Record<string, unknown>;
        const scopeName = this.shared.string(
          String(
            ((sso.scope ?? sso.instrumentationLibrary) as { name?: unknown } | undefined)?.name ??
              '',
          ),
        );
        if (!Array.isArray(sso.spans)) continue;
        for (const raw of sso.spans) this.importSpan(raw, resource, scopeName);
      }
    }
    return null;
  }

  private importSpan(raw: unknown, resource: Attrs, scope: string): void {
    if (!raw || typeof raw !== 'object') return;
    const s = raw as Record<string, unknown>;
    this.accept({
      resource,
      scope,
      traceId: field(s, 'traceId', 'trace_id'),
      spanId: field(s, 'spanId', 'span_id'),
      parentSpanId: field(s, 'parentSpanId', 'parent_span_id'),
      name: String(s.name ?? ''),
      kind: spanKind(s.kind),
      start: nanosToSeconds(field(s, 'startTimeUnixNano', 'start_time_unix_nano')),
      end: nanosToSeconds(field(s, 'endTimeUnixNano', 'end_time_unix_nano')),
      status: statusOf(s.status),
      attrs: keyValues(s.attributes),
      events: Array.isArray(s.events) ? s.events.filter(isObject).map(rawEvent) : null,
      links: Array.isArray(s.links) ? s.links.filter(isObject).map(rawLink) : null,
    });
  }

  /** One span as read: to the sink if there is one, else into this collector. */
  accept(raw: RawSpan): void {
    if (this.sink) this.sink(raw);
    else this.add(raw);
  }

  /** One span, read from a parsed line or scanned from its bytes (scan-export-line.ts). */
  add(raw: RawSpan): void {
    const start = raw.start;
    if (start === null) return;
    const end = raw.end === null || raw.end === 0 ? null : raw.end;
    const shared = this.shared;
    const traceId = shared.id(raw.traceId, TRACE_ID_SITE);
    const attrs = raw.attrs;
    const resource = raw.resource;
    if (resource !== this.lastResource) {
      this.lastResource = resource;
      this.lastResourceService = String(resource['service.name'] ?? '');
    }
    const service = this.lastResourceService;
    const item: SpanItem = {
      type: 'span',
      state: end === null ? 'open_span' : 'closed_span',
      name: shared.string(raw.name, 3),
      start_ts: start,
      end_ts: end,
      // an ongoing span is drawn to its row's end, known once the row is built
      display_end_ts: end ?? start,
      attempt: 0,
      span_id: normaliseId(raw.spanId),
      parent_span_id: shared.id(raw.parentSpanId, PARENT_ID_SITE) || null,
      parent_span_name: null,
      lane: 0,
      depth: 0,
      attrs:
        end === null
          ? { start_attrs: attrs, end_attrs: CLIPPED_AT_ROW_END }
          : attrs === EMPTY_ATTRS
            ? NO_SPAN_ATTRS
            : { start_attrs: attrs, end_attrs: EMPTY_ATTRS },
      service,
      otel: shared.otel(raw.kind, raw.status, resource, raw.scope),
      // set when the row is built, in this order; declared now so a million spans keep them
      // in the object instead of growing a property array each (undefined is left out of JSON)
      lane_label: undefined,
      error: undefined,
      missing_parent: undefined,
      links: undefined,
    };
    // neighbours mostly share their trace
    if (traceId !== this.lastTraceId) {
      let list = this.byTrace.get(traceId);
      if (!list) this.byTrace.set(traceId, (list = []));
      this.lastTraceId = traceId;
      this.lastTrace = list;
    }
    this.lastTrace.push(item);
    this.spans++;
    if (service && service !== this.lastService) {
      this.services.add(service);
      this.lastService = service;
    }
    if (attrs !== EMPTY_ATTRS) {
      const room = attrs.bootstrap_room;
      if (room !== undefined && room !== null) this.noteRoom(String(room), traceId);
    }
    let events: PointItem[] | null = null;
    if (raw.events !== null && raw.events.length > 0) {
      for (const e of raw.events) {
        if (e.ts === null) continue;
        const name = shared.string(e.name);
        (events ??= []).push({
          type: 'event',
          state: 'point_event',
          name,
          ts: e.ts,
          attempt: 0,
          span_id: null,
          parent_span_id: item.span_id,
          parent_span_name: item.name,
          lane: 0,
          depth: 0,
          attrs: e.attrs,
          error: name === 'exception' ? true : undefined,
        });
      }
      if (events) this.eventCount += events.length;
    }
    let links: SpanLink[] | null = null;
    if (raw.links !== null && raw.links.length > 0) {
      links = raw.links.map((l) => ({
        trace_id: shared.string(normaliseId(l.traceId)),
        span_id: normaliseId(l.spanId),
        dangling: false,
        attrs: l.attrs,
      }));
      this.linkCount += raw.links.length;
    }
    if (events || links) {
      let extras = this.extrasByTrace.get(traceId);
      if (!extras) this.extrasByTrace.set(traceId, (extras = []));
      extras[this.lastTrace.length - 1] = { events, links };
    }
  }
}

/** A span's fields as read: ids and times not yet normalised, values already plain. */
export interface RawSpan {
  resource: Attrs;
  scope: string;
  traceId: unknown;
  spanId: unknown;
  parentSpanId: unknown;
  name: string;
  kind: string;
  start: number | null;
  end: number | null;
  status: Status;
  attrs: Attrs;
  events: RawEvent[] | null;
  links: RawLink[] | null;
}

/** A RawSpan with nothing read yet: what a span without a field has for it. */
export function newRawSpan(): RawSpan {
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
    status: statusFrom(undefined, undefined),
    attrs: EMPTY_ATTRS,
    events: null,
    links: null,
  };
}

export interface RawEvent {
  name: string;
  ts: number | null;
  attrs: Attrs;
}

export interface RawLink {
  traceId: unknown;
  spanId: unknown;
  attrs: Attrs;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

function rawEvent(e: Record<string, unknown>): RawEvent {
  return {
    name: String(e.name ?? ''),
    ts: nanosToSeconds(field(e, 'timeUnixNano', 'time_unix_nano')),
    attrs: keyValues(e.attributes),
  };
}

function rawLink(l: Record<string, unknown>): RawLink {
  return {
    traceId: field(l, 'traceId', 'trace_id'),
    spanId: field(l, 'spanId', 'span_id'),
    attrs: keyValues(l.attributes),
  };
}

const TRACE_ID_SITE = 0;
const PARENT_ID_SITE = 1;

const CLIPPED_AT_ROW_END: Attrs = Object.freeze({ clipped_by: 'row_end' });
const NO_SPAN_ATTRS: SpanItem['attrs'] = Object.freeze({
  start_attrs: EMPTY_ATTRS,
  end_attrs: EMPTY_ATTRS,
});

/**
 * One copy of each value that repeats across spans: JSON.parse makes a fresh string for every
 * trace id, parent id and name, and a fresh resource per line. A million spans share a few
 * thousand of each, which is most of the difference between 3x and 1x the file in memory.
 */
class SharedValues {
  private readonly strings = new Map<string, string>();
  private readonly resources = new Map<string, Attrs>();
  private readonly otels = new Map<Attrs, Map<string, Otel>>();
  /** the last value per call site: spans of one line mostly repeat their neighbour's */
  private readonly last: string[] = ['', '', '', ''];

  /** An id as lowercase hex, normalised once per run of equal neighbours at a call site. */
  id(raw: unknown, site: typeof TRACE_ID_SITE | typeof PARENT_ID_SITE): string {
    if (typeof raw === 'string' && raw === this.lastRawId[site]) return this.lastId[site];
    // a trace id is kept once, as its trace's key: only parent ids repeat across spans
    const value = site === TRACE_ID_SITE ? normaliseId(raw) : this.string(normaliseId(raw));
    this.lastRawId[site] = raw;
    this.lastId[site] = value;
    return value;
  }

  private readonly lastRawId: unknown[] = [undefined, undefined];
  private readonly lastId: string[] = ['', ''];

  string(value: string, site: 0 | 1 | 2 | 3 = 0): string {
    if (value === '') return '';
    if (value === this.last[site]) return this.last[site];
    let known = this.strings.get(value);
    if (known === undefined) {
      known = value;
      this.strings.set(value, value);
    }
    this.last[site] = known;
    return known;
  }

  resource(attributes: unknown): Attrs {
    if (!Array.isArray(attributes) || attributes.length === 0) return EMPTY_ATTRS;
    const key = resourceKey(attributes);
    let known = this.resources.get(key);
    if (!known) {
      known = keyValues(attributes);
      this.resources.set(key, known);
    }
    return known;
  }

  /** One details object per (kind, status, resource, scope): spans share a handful of them. */
  otel(kind: string, status: Status, resource: Attrs, scope: string): Otel {
    // neighbours mostly share all four (plain statuses are shared objects, so identity works)
    const last = this.lastOtel;
    if (
      last &&
      last.kind === kind &&
      last.status === status &&
      last.resource === resource &&
      last.scope === scope
    )
      return last.otel;
    const otel = this.findOtel(kind, status, resource, scope);
    this.lastOtel = { kind, status, resource, scope, otel };
    return otel;
  }

  private lastOtel: {
    kind: string;
    status: Status;
    resource: Attrs;
    scope: string;
    otel: Otel;
  } | null = null;

  private findOtel(kind: string, status: Status, resource: Attrs, scope: string): Otel {
    let known = this.otels.get(resource);
    if (!known) {
      known = new Map();
      this.otels.set(resource, known);
    }
    const key = `${kind}\u0000${status.code}\u0000${status.message}\u0000${scope}`;
    let otel = known.get(key);
    if (!otel) {
      otel = {
        kind,
        status_code: status.code,
        status_message: status.message,
        resource,
        scope,
      };
      known.set(key, otel);
    }
    return otel;
  }
}

/** Identity of a resource's attribute list; cheaper than JSON.stringify for the usual strings. */
function resourceKey(attributes: unknown[]): string {
  let key = '';
  for (const kv of attributes) {
    const { key: name, value } = (kv ?? {}) as { key?: unknown; value?: { stringValue?: unknown } };
    const text =
      value && typeof value.stringValue === 'string' && Object.keys(value).length === 1
        ? `s${value.stringValue}`
        : `j${JSON.stringify(value)}`;
    key += `${String(name)}\u0000${text}\u0001`;
  }
  return key;
}
