import { isDict, type PyValue } from '../model/py-value';
import type { Attrs } from '../model/row';
import { NO_ATTRS } from './no-attrs';
import { isContainer, toFloat, truthy } from './python-values';
import { eventFields, newEventFields } from './trace-event-record';

/** A span as the walk over events finds it (TRACE_MODEL 3, steps 1-3). */
export interface WalkSpan {
  spanId: string;
  name: string;
  start: number;
  end: number | null;
  /** explicit parent_span_id when truthy, else the inferred one */
  parent: string | null;
  startAttrs: Attrs;
  endAttrs: Attrs;
  attempt: number;
  /**
   * the span its parent id finds by id (the last of the walk's spans with that id), or null:
   * looked up once, after the walk, for its depth and its parent's name
   */
  up: WalkSpan | null;
  /** its depth (step 5), once spanDepths has set it; -1 before */
  depth: number;
  /** whether a later span took its id (an id re-opened after this span closed) */
  superseded: boolean;
}

export interface WalkPoint {
  kind: 'event' | 'orphan_end';
  name: string;
  ts: number;
  spanId: string | null;
  parent: string | null;
  attrs: Attrs;
  attempt: number;
}

export interface WalkResult {
  /**
   * slime's span order: closed spans in the order they closed, then the spans left open in
   * the order their ids first opened. Ties of the item sort keep this order, and virtual PD
   * lanes are handed out in it.
   */
  spans: WalkSpan[];
  /** by id, the last of `spans` with that id winning (a closed span and a later open one may share an id) */
  byId: ReadonlyMap<string, WalkSpan>;
  /** instant events, in event order */
  events: WalkPoint[];
  /** unmatched ends, in event order */
  orphans: WalkPoint[];
  /** latest kept ts */
  maxTs: number;
  kept: number;
  /** events skipped because their span_id, parent_span_id, type or name is a container */
  skipped: number;
}

/**
 * Steps 1-3: walk events in list order with a stack of open span ids; an event's inferred
 * parent is the stack top before it; an explicit parent_span_id wins when truthy.
 */
export function walkEvents(events: PyValue[], traceAttempt: PyValue | undefined): WalkResult {
  // Per id, the last span opened with it, open or closed: the walk's open spans (Python dict
  // semantics: re-opening an open id replaces the span but keeps the id's first position; a
  // closed one is taken out and the id goes last, as slime's `del` then set does) and, once
  // the walk is done, its spans by id (the one map a row makes, not a second for byId)
  const ids = new Map<string, WalkSpan>();
  const closed: WalkSpan[] = [];
  const points: WalkPoint[] = [];
  const orphans: WalkPoint[] = [];
  const stack = new OpenIdStack();
  let maxTs = -Infinity;
  let kept = 0;
  let skipped = 0;
  const fields = newEventFields();
  for (const item of events) {
    // each field read once (event dicts come in several key orders, so every read of one is a
    // look-up by name; a record's are read by place): a string or a number, as nearly every
    // event has them, taken as it is
    const event = eventFields(item, fields);
    if (event === null) continue;
    const rawTs = event.ts;
    const ts = typeof rawTs === 'number' ? rawTs : toFloat(rawTs);
    if (ts === null) continue;
    const rawSpanId = event.span_id;
    const explicit = event.parent_span_id;
    const type = event.type;
    const rawName = event.name;
    if (
      isContainer(rawSpanId) ||
      isContainer(explicit) ||
      isContainer(type) ||
      isContainer(rawName)
    ) {
      skipped++;
      continue;
    }
    kept++;
    if (ts > maxTs) maxTs = ts;
    const inferred = stack.top();
    const parent = truthy(explicit) ? String(explicit) : inferred;
    const name = typeof rawName === 'string' ? rawName : rawName == null ? '' : String(rawName);
    const spanId = truthy(rawSpanId) ? String(rawSpanId) : null;
    const rawAttrs = event.attrs;
    const attrs = isDict(rawAttrs) ? (rawAttrs as Attrs) : NO_ATTRS;
    const rawAttempt = event.attempt;
    const attempt =
      typeof rawAttempt === 'number' && Number.isInteger(rawAttempt)
        ? rawAttempt
        : attemptOf(event.hasAttempt ? rawAttempt : traceAttempt);
    if (type === 'span_start' && spanId !== null) {
      const before = ids.get(spanId);
      if (before !== undefined && before.end !== null) {
        before.superseded = true;
        ids.delete(spanId);
      }
      ids.set(spanId, {
        spanId,
        name,
        start: ts,
        end: null,
        parent,
        startAttrs: attrs,
        endAttrs: NO_ATTRS,
        attempt,
        up: null,
        depth: -1,
        superseded: false,
      });
      stack.push(spanId);
    } else if (type === 'span_end') {
      // the stack forgets the id even when the end matches no open span (a second end of a
      // duplicated id still pops the id's remaining stack entry)
      if (spanId !== null) stack.removeLast(spanId);
      const span = spanId === null ? undefined : ids.get(spanId);
      if (span !== undefined && span.end === null) {
        span.end = ts;
        span.endAttrs = attrs;
        closed.push(span);
      } else {
        orphans.push({ kind: 'orphan_end', name, ts, spanId, parent, attrs, attempt });
      }
    } else {
      points.push({ kind: 'event', name, ts, spanId: null, parent, attrs, attempt });
    }
  }
  // closed spans, then the open ones (onto the closed list: no spread of an iterator a row)
  const spans = closed;
  for (const span of ids.values()) if (span.end === null) spans.push(span);
  // An id's span in `ids` is the last of `spans` with it: an open one is its id's only open
  // span, and they come last; a closed one closed after every earlier span with its id.
  for (const span of spans) if (span.parent !== null) span.up = ids.get(span.parent) ?? null;
  return { spans, byId: ids, events: points, orphans, maxTs, kept, skipped };
}

/**
 * slime's stack of open span ids (a list: push, `stack[-1]`, remove the last occurrence of an
 * id) in constant amortised time per event: removing marks the entry dead and the top skips
 * dead entries. A list scanned and spliced per end was quadratic in the number of open spans;
 * a row's stack is a few ids deep, so the last occurrence is looked for from the top, and only
 * a stack grown past SCAN_DEPTH keeps each id's positions in a map (a map per row cost more
 * than the rest of the walk).
 */
class OpenIdStack {
  private readonly ids: string[] = [];
  private readonly alive: boolean[] = [];
  /** per id, the positions of its live entries, last on top: once the stack grew deep */
  private positions: Map<string, number[]> | null = null;

  push(id: string): void {
    const at = this.ids.length;
    this.ids.push(id);
    this.alive.push(true);
    if (this.positions === null) {
      if (at < SCAN_DEPTH) return;
      this.positions = new Map();
      for (let i = 0; i < at; i++) if (this.alive[i]) this.addPosition(this.ids[i], i);
    }
    this.addPosition(id, at);
  }

  private addPosition(id: string, at: number): void {
    const list = this.positions!.get(id);
    if (list) list.push(at);
    else this.positions!.set(id, [at]);
  }

  top(): string | null {
    while (this.ids.length > 0 && !this.alive[this.ids.length - 1]) {
      this.ids.pop();
      this.alive.pop();
    }
    return this.ids.length > 0 ? this.ids[this.ids.length - 1] : null;
  }

  removeLast(id: string): void {
    if (this.positions === null) {
      for (let i = this.ids.length - 1; i >= 0; i--)
        if (this.alive[i] && this.ids[i] === id) {
          this.alive[i] = false;
          return;
        }
      return;
    }
    const list = this.positions.get(id);
    if (!list || list.length === 0) return;
    this.alive[list.pop()!] = false;
  }
}

/** open span ids up to this many (dead ones included) are looked through, not mapped */
const SCAN_DEPTH = 32;

/**
 * int(event.get("attempt", trace.get("attempt", 0)) or 0) of the value that call finds (the
 * event's when it has the key): None and missing count as 0.
 */
function attemptOf(raw: PyValue | undefined): number {
  const n = toFloat(raw ?? 0);
  return n === null || !Number.isFinite(n) ? 0 : Math.trunc(n);
}
