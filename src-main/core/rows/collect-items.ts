import type { PyValue } from '../model/py-value';
import type { Attrs } from '../model/row';
import { isDict, toFloat, truthy } from './python-values';

/** A span as the walk over events finds it (TRACE_MODEL 3, steps 1-3). */
export interface WalkSpan {
  spanId: string;
  name: string;
  start: number;
  end: number | null;
  parent: string | null;
  startAttrs: Attrs;
  endAttrs: Attrs;
  attempt: number;
  /** order of creation, and of closing (closed spans only) */
  order: number;
  closeOrder: number;
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
  spans: Map<string, WalkSpan>;
  points: WalkPoint[];
  /** latest kept ts, and earliest */
  maxTs: number;
  minTs: number;
  kept: number;
}

/**
 * Step 1-3: walk events in list order with a stack of open span ids; an event's inferred
 * parent is the stack top before it; an explicit parent_span_id wins when truthy.
 */
export function walkEvents(events: PyValue[], traceAttempt: PyValue | undefined): WalkResult {
  const spans = new Map<string, WalkSpan>();
  const points: WalkPoint[] = [];
  const stack: string[] = [];
  let maxTs = -Infinity;
  let minTs = Infinity;
  let kept = 0;
  let order = 0;
  let closeOrder = 0;
  for (const event of events) {
    if (!isDict(event)) continue;
    const ts = toFloat(event.ts);
    if (ts === null) continue;
    kept++;
    if (ts > maxTs) maxTs = ts;
    if (ts < minTs) minTs = ts;
    const inferred = stack.length > 0 ? stack[stack.length - 1] : null;
    const explicit = event.parent_span_id;
    const parent = truthy(explicit) ? String(explicit) : inferred;
    const type = event.type;
    const name = event.name === undefined || event.name === null ? '' : String(event.name);
    const spanId = truthy(event.span_id) ? String(event.span_id) : null;
    const attrs = isDict(event.attrs) ? (event.attrs as Attrs) : {};
    const attempt = attemptOf(event, traceAttempt);
    if (type === 'span_start' && spanId !== null) {
      spans.set(spanId, {
        spanId,
        name,
        start: ts,
        end: null,
        parent,
        startAttrs: attrs,
        endAttrs: {},
        attempt,
        order: order++,
        closeOrder: -1,
      });
      stack.push(spanId);
    } else if (type === 'span_end') {
      const span = spanId === null ? undefined : spans.get(spanId);
      if (span && span.end === null && stack.includes(span.spanId)) {
        span.end = ts;
        span.endAttrs = attrs;
        span.closeOrder = closeOrder++;
        const at = stack.lastIndexOf(span.spanId);
        stack.splice(at, 1);
      } else {
        points.push({ kind: 'orphan_end', name, ts, spanId, parent, attrs, attempt });
      }
    } else {
      points.push({ kind: 'event', name, ts, spanId: null, parent, attrs, attempt });
    }
  }
  return { spans, points, maxTs, minTs, kept };
}

/** The event's own attempt when the key is there, else the trace's; None counts as 0. */
function attemptOf(event: Record<string, PyValue>, traceAttempt: PyValue | undefined): number {
  const raw = 'attempt' in event ? event.attempt : traceAttempt;
  const n = toFloat(raw ?? 0);
  return n === null || Number.isNaN(n) ? 0 : Math.trunc(n);
}
