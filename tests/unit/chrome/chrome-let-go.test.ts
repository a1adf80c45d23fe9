import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { bindFlows } from '../../../src-main/core/formats/chrome/bind-flows';
import { buildChromeRows } from '../../../src-main/core/formats/chrome/build-chrome-rows';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { importTraceEvents } from '../../../src-main/core/formats/chrome/import-trace-events';
import { packBlocks } from '../../../src-main/core/rows/pack-blocks';
import { ItemPacker, unpackRow } from '../../../src-main/core/rows/packed-items';
import type { SpanItem } from '../../../src-main/core/model/row';

/**
 * What the Chrome reader keeps and lets go of (issue 49's tiny processes and instants, issue
 * 45's GPU ranks): args' arrays kept once, the trace emptied as its rows are built, and the
 * lists shared while empty never written through.
 */
const source = (events: unknown[]) =>
  bytesSource('t.json', new TextEncoder().encode(JSON.stringify({ traceEvents: events })));

const op = (ts: number, dims: unknown) => ({
  ph: 'X',
  cat: 'cpu_op',
  name: 'aten::mm',
  pid: 1,
  tid: 1,
  ts,
  dur: 5,
  args: { 'Input Dims': dims, 'Input type': ['float', 'float'], 'External id': ts },
});

describe('the Chrome reader lets go of what its rows no longer need', () => {
  it('keeps one frozen copy of equal args arrays, values unchanged', () => {
    const trace = importTraceEvents(
      source([
        op(10, [
          [2048, 16],
          [16, 1024],
        ]),
        op(20, [
          [2048, 16],
          [16, 1024],
        ]),
        op(30, [[8, 8]]),
      ]),
    );
    const slices = [...trace.processes.values()][0].threads[0].slices;
    // args are kept as columns, each made again as an object for its item (ArgsColumns)
    expect(slices.every((s) => typeof s.args === 'number')).toBe(true);
    const [a, b, c] = slices.map((s) => trace.argsColumns.objectOf(s.args));
    expect(a['Input Dims']).toBe(b['Input Dims']);
    expect(a['Input type']).toBe(c['Input type']);
    expect(c['Input Dims']).not.toBe(a['Input Dims']);
    expect(a['Input Dims']).toEqual([
      [2048, 16],
      [16, 1024],
    ]);
    expect(Object.isFrozen((a['Input Dims'] as unknown[])[0])).toBe(true);
    // each event's own numbers stay its own
    expect(slices.map((s) => trace.argsColumns.valueOf(s.args, 'External id'))).toEqual([
      10, 20, 30,
    ]);
  });

  it('empties the trace as rows are built, and the items keep args, parents and links', () => {
    const trace = importTraceEvents(
      source([
        { ph: 'X', name: 'step', pid: 1, tid: 1, ts: 0, dur: 100, args: { n: [1, 2] } },
        { ph: 'X', name: 'launch', pid: 1, tid: 1, ts: 10, dur: 5, args: { grid: [4, 1, 1] } },
        { ph: 's', id: 7, cat: 'ac2g', name: 'ac2g', pid: 1, tid: 1, ts: 12 },
        { ph: 'X', name: 'kernel', pid: 2, tid: 9, ts: 30, dur: 20, args: { grid: [4, 1, 1] } },
        { ph: 'f', id: 7, cat: 'ac2g', name: 'ac2g', pid: 2, tid: 9, ts: 30, bp: 'e' },
        { ph: 'i', name: 'mark', pid: 1, tid: 1, ts: 50, s: 'g' },
      ]),
    );
    for (const process of trace.processes.values())
      for (const thread of process.threads) {
        thread.slices.forEach((s, i) => {
          s.depth = i === 0 ? 0 : 1;
          s.parent = i === 0 ? null : thread.slices[0];
        });
      }
    expect(bindFlows(trace).links).toBe(1);
    const rows = buildChromeRows(trace, packBlocks, new ItemPacker());
    expect(trace.processes.size).toBe(0);
    expect(trace.flowSteps.length).toBe(0);
    expect(trace.globalInstants).toEqual([]);
    expect(rows.map((r) => r.label)).toEqual(['pid 1', 'pid 2', 'global']);
    const spans = rows.flatMap((r) => unpackRow(r).items).filter((i) => i.type === 'span');
    const byName = new Map(spans.map((s) => [s.name, s as SpanItem]));
    expect(byName.get('launch')!.parent_span_name).toBe('step');
    expect(byName.get('launch')!.attrs.start_attrs).toEqual({ grid: [4, 1, 1] });
    expect(byName.get('kernel')!.links).toEqual([
      { trace_id: 'pid 1', span_id: byName.get('launch')!.span_id, dangling: false },
    ]);
  });

  it('a first E, B or instant on a thread writes to a list of its own, not the shared empty one', () => {
    const opened = chromeTraceFormat.open(
      [
        source([
          { ph: 'E', pid: 1, tid: 1, ts: 5 },
          { ph: 'i', name: 'p', pid: 2, ts: 6, s: 'p' },
          { ph: 'B', name: 'b', pid: 3, tid: 3, ts: 7 },
          { ph: 'i', name: 't', pid: 4, tid: 4, ts: 8 },
          { ph: 'n', name: 'n', cat: 'c', id: 1, pid: 5, tid: 5, ts: 9 },
          { ph: 'X', name: 'x', pid: 6, tid: 6, ts: 10, dur: 1 },
        ]),
      ],
      {},
    );
    expect(opened.rows.map((r) => r.item_count)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(opened.counts).toEqual({ spans: 2, events: 3, links: 0 });
  });
});
