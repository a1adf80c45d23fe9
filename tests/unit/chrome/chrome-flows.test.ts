import { describe, expect, it } from 'vitest';
import type { SpanItem } from '../../../src-main/core/model/row';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { openChromeEvents } from '../../support/chrome-events';

const open = (events: object[]) => openChromeEvents(events, 'flows.json');
const slice = (name: string, tid: number, ts: number, flow: object) => ({
  ph: 'X',
  name,
  pid: 1,
  tid,
  ts,
  dur: 5,
  ...flow,
});
/** each span's name -> the names of the spans its links come from */
function linksByName(trace: ReturnType<typeof open>): Record<string, string[]> {
  const row = unpackRow(trace.rows[0]);
  const spans = row.items.filter((i): i is SpanItem => i.type === 'span');
  const nameOf = new Map(spans.map((s) => [s.span_id, s.name]));
  const out: Record<string, string[]> = {};
  for (const s of spans) {
    if (s.links) out[s.name] = s.links.map((l) => nameOf.get(l.span_id) ?? '?');
  }
  return out;
}

describe('flow v2 (bind_id with flow_out / flow_in): one to one, in time order', () => {
  it('each flow_in takes the oldest flow_out of its id still waiting', () => {
    const trace = open([
      slice('out1', 1, 0, { bind_id: 'x', flow_out: true }),
      slice('out2', 1, 10, { bind_id: 'x', flow_out: true }),
      slice('in1', 2, 20, { bind_id: 'x', flow_in: true }),
      slice('in2', 2, 30, { bind_id: 'x', flow_in: true }),
      slice('in3', 2, 40, { bind_id: 'x', flow_in: true }),
    ]);
    expect(linksByName(trace)).toEqual({ in1: ['out1'], in2: ['out2'] });
    expect(trace.summary.links).toBe(2);
    // in3 found nothing waiting
    expect(trace.summary.notices).toContain('1 flow event not bound to any slice');
  });

  it('a slice with flow_in and flow_out continues the flow; ids do not mix', () => {
    const trace = open([
      slice('a', 1, 0, { bind_id: 1, flow_out: true }),
      slice('b', 2, 10, { bind_id: 1, flow_in: true, flow_out: true }),
      slice('c', 3, 20, { bind_id: 1, flow_in: true }),
      slice('other', 3, 30, { bind_id: 2, flow_out: true }),
    ]);
    expect(linksByName(trace)).toEqual({ b: ['a'], c: ['b'] });
    // the flow_out of id 2 never reached a flow_in
    expect(trace.summary.notices).toContain('1 flow event not bound to any slice');
  });

  it('12,000 outs and 12,000 ins of one id make 12,000 links, not 144 million', () => {
    const events = [];
    for (let i = 0; i < 12_000; i++) {
      events.push(slice('out', 1, i * 20, { bind_id: 7, flow_out: true }));
      events.push(slice('in', 2, i * 20 + 10, { bind_id: 7, flow_in: true }));
    }
    expect(open(events).summary.links).toBe(12_000);
  });
});

describe('flow v1 steps bind to the innermost slice open at their time', () => {
  it('past inner slices that ended before the step, to the enclosing one', () => {
    const trace = open([
      { ph: 'X', name: 'outer', pid: 1, tid: 1, ts: 0, dur: 100 },
      { ph: 'X', name: 'inner', pid: 1, tid: 1, ts: 10, dur: 10 },
      { ph: 'X', name: 'target', pid: 1, tid: 2, ts: 60, dur: 10 },
      { ph: 's', name: 'f', cat: 'c', id: 1, pid: 1, tid: 1, ts: 50 },
      { ph: 'f', name: 'f', cat: 'c', id: 1, pid: 1, tid: 2, ts: 60, bp: 'e' },
      { ph: 's', name: 'g', cat: 'c', id: 2, pid: 1, tid: 1, ts: 15 },
      { ph: 'f', name: 'g', cat: 'c', id: 2, pid: 1, tid: 2, ts: 55 },
    ]);
    // f starts in outer (inner has ended); g starts in inner and, without bp e, ends at the
    // next slice to start on its thread (target)
    expect(linksByName(trace)).toEqual({ target: ['outer', 'inner'] });
  });

  it('keeps flows apart by category, by an id of number or text, and by local ids per process', () => {
    const x = (name: string, pid: number, tid: number, ts: number) => ({
      ph: 'X',
      name,
      pid,
      tid,
      ts,
      dur: 5,
    });
    const step = (ph: string, cat: string, id: object, tid: number, ts: number, pid = 1) => ({
      ph,
      name: 'flow',
      cat,
      pid,
      tid,
      ts: ts + 1,
      bp: 'e',
      ...id,
    });
    const trace = open([
      x('a', 1, 1, 0),
      x('b', 1, 2, 10),
      x('c', 1, 3, 20),
      x('d', 1, 4, 30),
      x('e', 1, 5, 40),
      x('f', 1, 6, 50),
      // one number id in two categories, and the same id as text: three flows
      step('s', 'ac2g', { id: 5 }, 1, 0),
      step('s', 'fwdbwd', { id: 5 }, 2, 10),
      step('s', 'ac2g', { id: '5' }, 3, 20),
      step('f', 'fwdbwd', { id: 5 }, 4, 30),
      step('f', 'ac2g', { id: '5' }, 5, 40),
      step('f', 'ac2g', { id: 5 }, 6, 50),
    ]);
    expect(linksByName(trace)).toEqual({ d: ['b'], e: ['c'], f: ['a'] });
  });

  it("links a flow's steps in time order whatever order the file writes them in", () => {
    const trace = open([
      { ph: 'X', name: 'first', pid: 1, tid: 1, ts: 0, dur: 10 },
      { ph: 'X', name: 'second', pid: 1, tid: 2, ts: 20, dur: 10 },
      { ph: 'X', name: 'third', pid: 1, tid: 3, ts: 40, dur: 10 },
      { ph: 'f', name: 'f', cat: 'c', id: 3, pid: 1, tid: 3, ts: 45, bp: 'e' },
      { ph: 't', name: 'f', cat: 'c', id: 3, pid: 1, tid: 2, ts: 25 },
      { ph: 's', name: 'f', cat: 'c', id: 3, pid: 1, tid: 1, ts: 5 },
    ]);
    expect(linksByName(trace)).toEqual({ second: ['first'], third: ['second'] });
  });
});
