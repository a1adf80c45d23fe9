import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { ArgsColumns } from '../../../src-main/core/formats/chrome/args-columns';
import type { ChromeSlice, ChromeTrace } from '../../../src-main/core/formats/chrome/chrome-trace';
import { importTraceEvents } from '../../../src-main/core/formats/chrome/import-trace-events';
import { FIXTURES } from '../../support/fixtures';
import { ItemPacker, unpackItems } from '../../../src-main/core/rows/packed-items';
import type { AttrColumns } from '../../../src-main/core/model/attr-shape';
import type { SpanItem } from '../../../src-main/core/model/row';

/**
 * Slices' args kept as columns from the import to the row (ArgsColumns, issue 45's eight ranks of
 * 300 MB): each made again is the object the event's args were, with its category, key for key in
 * the same order, values equal; what a plain assignment could not make again stays an object.
 */
type Event = { ph?: string; cat?: unknown; args?: Record<string, unknown> };

/** every slice of the trace in the order their events came */
function slicesOf(trace: ChromeTrace): ChromeSlice[] {
  const slices: ChromeSlice[] = [];
  for (const process of trace.processes.values()) {
    for (const thread of process.threads) slices.push(...thread.slices);
    for (const track of process.asyncTracks.values()) slices.push(...track.slices);
  }
  return slices.sort((a, b) => a.spanIndex - b.spanIndex);
}

/** what a slice's args were before: the event's args with `cat` when they had none */
const expectedArgs = (event: Event) => {
  const args = { ...(event.args ?? {}) };
  if (typeof event.cat === 'string' && args.cat === undefined) args.cat = event.cat;
  return args;
};

describe("a Chrome trace's slices keep their args as columns", () => {
  for (const name of ['gpu/rank-0.json.gz', 'chrome/torch_profiler_train_cpu.json']) {
    it(`every slice of ${name} gets back its event's args, key order included`, () => {
      const raw = readFileSync(resolve(FIXTURES, name));
      const bytes = name.endsWith('.gz') ? gunzipSync(raw) : raw;
      const trace = importTraceEvents(bytesSource(name, new Uint8Array(bytes)));
      const text = new TextDecoder().decode(bytes);
      const parsed = JSON.parse(text) as { traceEvents: Event[] } | Event[];
      const events = (Array.isArray(parsed) ? parsed : parsed.traceEvents).filter(
        (e) => e.ph === 'X' || e.ph === 'B',
      );
      const slices = slicesOf(trace);
      expect(slices.length).toBe(events.length);
      let columns = 0;
      slices.forEach((slice, k) => {
        if (typeof slice.args === 'number') columns++;
        const back = trace.argsColumns.objectOf(slice.args);
        const want = expectedArgs(events[k]);
        expect(Object.keys(back)).toEqual(Object.keys(want));
        expect(back).toStrictEqual(want);
        expect(trace.argsColumns.valueOf(slice.args, 'correlation')).toBe(want.correlation);
      });
      // the events with args of their own are kept as columns, not one object each
      expect(columns).toBe(events.filter((e) => e.args !== undefined).length);
      expect(columns).toBeGreaterThan(100);
    });
  }

  it('keeps keys as for-in orders them, -0, nulls, booleans, strings and shared arrays', () => {
    const argsList: Record<string, unknown>[] = [
      { b: 1, 2: 'two', 1: true, a: null },
      { b: -0, 2: 'two', 1: false, a: null },
      { b: 'now a string', 2: 2, 1: true, a: [1, 2] },
      { only: 1.5e300 },
      {},
    ];
    // more shapes of one name than the columns keep at hand, taking turns
    for (let k = 0; k < 12; k++) argsList.push({ [`key${k % 10}`]: k, dims: [[k], [k]] });
    const events = argsList.map((args, k) => ({
      ph: 'X',
      cat: 'cpu_op',
      name: 'aten::mm',
      pid: 1,
      tid: 1,
      ts: k * 10,
      dur: 5,
      args,
    }));
    // JSON.stringify writes -0 as 0: the file says -0 as a writer may
    const text = JSON.stringify({ traceEvents: events }).replace('"b":0,', '"b":-0,');
    const trace = importTraceEvents(bytesSource('t.json', new TextEncoder().encode(text)));
    const slices = slicesOf(trace);
    slices.forEach((slice, k) => {
      const want = JSON.parse(JSON.stringify(argsList[k])) as Record<string, unknown>;
      if (k === 1) want.b = -0;
      want.cat = 'cpu_op';
      const back = trace.argsColumns.objectOf(slice.args);
      expect(Object.keys(back)).toEqual(Object.keys(want));
      expect(back).toStrictEqual(want);
    });
    expect(Object.is(trace.argsColumns.valueOf(slices[1].args, 'b'), -0)).toBe(true);
    expect(trace.argsColumns.valueOf(slices[0].args, 'missing')).toBeUndefined();
    // two makings of one args are two objects, their shared arrays one
    const again = trace.argsColumns.objectOf(slices[2].args);
    expect(again).not.toBe(trace.argsColumns.objectOf(slices[2].args));
    expect(again.a).toBe(trace.argsColumns.objectOf(slices[2].args).a);
  });

  it('leaves args it could not make again (a __proto__ key) and shared empty ones as objects', () => {
    const trace = importTraceEvents(
      bytesSource(
        't.json',
        new TextEncoder().encode(
          '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"__proto__":7,"x":1}},' +
            '{"ph":"X","name":"b","cat":"c","pid":1,"tid":1,"ts":3,"dur":1}]',
        ),
      ),
    );
    const [odd, bare] = slicesOf(trace);
    expect(typeof odd.args).toBe('object');
    const args = odd.args as Record<string, unknown>;
    expect(Object.keys(args)).toEqual(['__proto__', 'x']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(typeof bare.args).toBe('object');
    expect(bare.args).toEqual({ cat: 'c' });
  });

  it('past its shapes or names, keeps the args of a new one as they are (ids in keys or names)', () => {
    const columns = new ArgsColumns(3, 2);
    // three shapes of one name are kept; a fourth shape is not, the known ones still are
    expect([0, 1, 2, 3].map((k) => columns.put({ [`id${k}`]: k }, 'op'))).toEqual([0, 1, 2, null]);
    expect(columns.put({ id1: 7 }, 'op')).toBe(3);
    expect(columns.object(3)).toEqual({ id1: 7 });
    // a second name is kept under a known shape; a third name is not
    expect(columns.put({ id0: 5 }, 'other')).toBe(4);
    expect(columns.put({ id0: 5 }, 'third')).toBeNull();
    expect(columns.object(4)).toEqual({ id0: 5 });
  });

  it('packs a span given its args as columns as it packs the object made of them', () => {
    // a real rank's slices, each packed twice: from the object, and from its columns; the
    // columns' packer also gets every third slice as an object, so that both ways of one name
    // share its shapes
    const raw = readFileSync(resolve(FIXTURES, 'gpu/rank-0.json.gz'));
    const trace = importTraceEvents(bytesSource('rank-0.json', new Uint8Array(gunzipSync(raw))));
    const slices = slicesOf(trace).filter((slice) => typeof slice.args === 'number');
    expect(slices.length).toBeGreaterThan(1000);
    const fromObjects = new ItemPacker();
    const fromColumns = new ItemPacker();
    fromObjects.begin(slices.length);
    fromColumns.begin(slices.length);
    const columns: AttrColumns = {
      shape: { keys: [], numeric: [] },
      numbers: new Float64Array(0),
      numbersAt: 0,
      refs: [],
      refsAt: 0,
    };
    slices.forEach((slice, k) => {
      const item: SpanItem = {
        type: 'span',
        state: 'closed_span',
        name: slice.name,
        start_ts: slice.startUs / 1e6,
        end_ts: (slice.endUs ?? slice.startUs) / 1e6,
        display_end_ts: (slice.endUs ?? slice.startUs) / 1e6,
        attempt: null,
        span_id: `s${k}`,
        parent_span_id: null,
        parent_span_name: null,
        lane: 0,
        depth: 0,
        attrs: {
          start_attrs: trace.argsColumns.objectOf(slice.args),
          end_attrs: k % 5 === 0 ? { clipped_by: 'row_end' } : {},
        },
      };
      fromObjects.add(item);
      if (k % 3 === 0) fromColumns.add(item);
      else {
        const given = { ...item, attrs: { start_attrs: {}, end_attrs: item.attrs.end_attrs } };
        fromColumns.add(
          given,
          undefined,
          undefined,
          trace.argsColumns.columnsOf(slice.args as number, columns),
        );
      }
    });
    const want = unpackItems(fromObjects.end());
    const got = unpackItems(fromColumns.end());
    expect(got).toStrictEqual(want);
    got.forEach((item, k) => {
      const { start_attrs } = (item as SpanItem).attrs;
      expect(Object.keys(start_attrs)).toEqual(
        Object.keys((want[k] as SpanItem).attrs.start_attrs),
      );
    });
  });
});
