import type { PyValue } from '../../../src-main/core/model/py-value';
import type { WalkSpan } from '../../../src-main/core/rows/collect-items';

/** A trace event as slime's trace_utils writes it (hand-built, for step tests). */
export function ev(
  type: string,
  name: string,
  ts: PyValue,
  extra: Record<string, PyValue> = {},
): Record<string, PyValue> {
  return { type, name, ts, attempt: 0, ...extra };
}

/** A sample holding a trace of these events. */
export function sampleWith(
  events: PyValue[],
  fields: Record<string, PyValue> = {},
  trace: Record<string, PyValue> = {},
): Record<string, PyValue> {
  return {
    group_index: 0,
    index: 0,
    status: 'completed',
    ...fields,
    trace: { version: 1, trace_id: 't', attempt: 0, ...trace, events },
  };
}

/** A walked span, by hand: `end` null when it never ended. */
export function walked(
  spanId: string,
  name: string,
  start: number,
  end: number | null,
  parent: string | null,
): WalkSpan {
  return {
    spanId,
    name,
    start,
    end,
    parent,
    startAttrs: {},
    endAttrs: {},
    attempt: 0,
    up: null,
    depth: -1,
    superseded: false,
  };
}
