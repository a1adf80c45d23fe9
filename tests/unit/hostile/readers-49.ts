import type { OpenedTrace } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import {
  asyncOverlap,
  asyncSameId,
  deepChromeArgs,
  deepTimelineFields,
  flowFanout,
  hugeChromeTs,
  longThreadName,
  nestedFlows,
  timelineHugeSequence,
  timelineLongLine,
  timelineManyRanks,
  timelineOverlap,
  tinyProcesses,
} from '../../bench/hostile-writers.mjs';
import { exportTrace } from '../../../src-main/core/export/export-trace';
import { slimeDump } from './container-writers';
import type { HostileCase } from './corpus';

/**
 * Issue 49's cases of the Chrome trace and trainer timeline readers (its numbered findings 1,
 * 3, 4, 5 and 10's odd values), at sizes a unit test affords; `npm run bench hostile` runs the
 * same generators (tests/bench/hostile-writers.mjs) at the issue's sizes, each with its time
 * and peak memory beside its bound. The expected figures follow from how each generator lays
 * out its events (see its comment there).
 */
const text = (s: string) => new TextEncoder().encode(s);

export const READER_CASES: HostileCase[] = [
  {
    id: 'chrome-flow-fanout',
    issue: '49.1',
    why: '12k flow_out and 12k flow_in slices sharing one bind_id made 144M links (4.3 GB)',
    name: 'fanout.json',
    make: () => text(flowFanout(12_000)),
    // out i (ts 2i) is the oldest waiting out when in i (ts 2i + 1) comes: one link each
    expect: {
      opens: (t) => {
        equal(t.summary.spans, 24_000);
        equal(t.summary.links, 12_000);
        const row = unpackRow(t.rows[0]);
        const firstIn = row.items.find((i) => i.type === 'span' && i.name === 'in');
        equal(firstIn?.type === 'span' ? firstIn.links?.length : null, 1);
      },
    },
    maxMs: 15_000,
  },
  {
    id: 'chrome-nested-flows',
    issue: '49.3',
    why: 'N nested slices with N flow steps took quadratic time (80k: 21.6 s, 160k: over 120 s)',
    name: 'nested-flows.json',
    make: () => text(nestedFlows(40_000)),
    // flow k: s in slice 2k+1's tail, f in slice 2k's tail: every one of the 20,000 binds
    expect: {
      opens: (t) => {
        equal(t.summary.links, 20_000);
        equal(t.rows[0].lane_count, 40_000);
        equal(
          t.summary.notices.some((n) => n.includes('not bound')),
          false,
        );
      },
    },
    maxMs: 20_000,
  },
  {
    id: 'chrome-async-overlap',
    issue: '49.3',
    why: 'overlapping async slices were packed by a lane scan per slice (200k: 37 s)',
    name: 'async-overlap.json',
    make: () => text(asyncOverlap(25_000)),
    // every id's slice overlaps every other: a lane each
    expect: {
      opens: (t) => {
        equal(t.rows[0].lane_count, 25_000);
        equal(t.rows[0].closed_span_count, 25_000);
      },
    },
    maxMs: 20_000,
  },
  {
    id: 'chrome-async-same-id',
    issue: '49.3',
    why: 'async slices reusing one id were ended by a scan of the open ones (100k: 16.7 s)',
    name: 'async-same-id.json',
    make: () => text(asyncSameId(25_000)),
    // e "a<i>" ends b "a<i>" (by name), the oldest open: each slice is [i, 25000 + i]
    expect: {
      opens: (t) => {
        const row = unpackRow(t.rows[0]);
        equal(row.closed_span_count, 25_000);
        equal(row.orphan_count, 0);
        const a7 = row.items.find((i) => i.type === 'span' && i.name === 'a7');
        equal(a7?.type === 'span' ? (a7.end_ts! - a7.start_ts) * 1e6 : null, 25_000);
      },
    },
    maxMs: 20_000,
  },
  {
    id: 'timeline-overlap',
    issue: '49.3',
    why: 'N overlapping spans on one trainer rank took a lane scan each (200k: 71 s)',
    name: 'overlap.jsonl',
    make: () => text(timelineOverlap(25_000)),
    // span i is [i, i + n] microseconds: each overlaps all the others still running
    expect: {
      opens: (t: OpenedTrace) => {
        equal(t.rows[0].lane_count, 25_000);
        equal(t.summary.spans, 25_000);
      },
    },
    maxMs: 20_000,
  },
  {
    id: 'timeline-long-line',
    issue: '49.4',
    why: 'a 100 MB line in a trainer timeline took 3.37 GB as one string; past 16 MiB it is skipped unread',
    name: 'long-line.jsonl',
    make: () => {
      const parts = [...timelineLongLine(17 * 1024 * 1024)].map((p) => Buffer.from(p));
      return new Uint8Array(Buffer.concat(parts));
    },
    expect: {
      opens: (t) => {
        equal(t.summary.spans, 2);
        equal(t.summary.skippedLines.count, 1);
        equal(t.summary.skippedLines.examples[0].reason.startsWith('longer than 16 MiB'), true);
      },
    },
    maxMs: 15_000,
  },
  {
    id: 'timeline-many-ranks',
    issue: '49.4',
    why: 'a million trainer ranks in one file took a row object each (81 MB: 1.92 GB); past 10,000 processes the rest share one row',
    name: 'ranks.jsonl',
    make: () =>
      new Uint8Array(Buffer.concat([...timelineManyRanks(50_000)].map((p) => Buffer.from(p)))),
    // one event per rank 0..49,999: ranks 0..9,999 a row each, the other 40,000 one row
    expect: {
      opens: (t) => {
        equal(t.summary.events, 50_000);
        equal(t.rows.length, 10_001);
        equal(t.rows[10_000].item_count, 40_000);
        equal(t.rows[10_000].source, 'trainer 10000 to trainer 49999 (40,000 processes folded)');
        equal(
          t.summary.notices.includes(
            '50,000 processes (role, rank): the first 10,000 are rows, the other 40,000 folded into the last row',
          ),
          true,
        );
      },
    },
    maxMs: 20_000,
  },
  {
    id: 'chrome-long-thread-name',
    issue: '49.4',
    why: "a 1 MB thread name, repeated as every item's lane label, made rows fail after 2 GB",
    name: 'long-name.json',
    make: () => text(longThreadName(1_000_000, 2000)),
    expect: {
      opens: (t) => {
        const row = unpackRow(t.rows[0]);
        equal(row.items.length, 2000);
        equal(
          row.items.every((i) => (i.lane_label ?? '').length < 1100),
          true,
        );
        equal(t.summary.notices.includes('1 name longer than 1000 characters: cut'), true);
      },
    },
  },
  {
    id: 'chrome-tiny-processes',
    issue: '49.4',
    why: '300,000 processes of one slice each peaked at 1.0 GB (9.5 MB), then 600 MB (13.3 MB)',
    name: 'tiny-processes.json',
    make: () => text(tinyProcesses(30_000)),
    // process i (pid i) holds one complete slice at ts i of 1 us: a row each, in pid order,
    // labelled by its pid, its one item on its thread's lane
    expect: {
      opens: (t) => {
        equal(t.summary.rows, 30_000);
        equal(t.summary.spans, 30_000);
        equal(t.summary.sources.length, 30_000);
        equal(t.store.rowsBySource.size, 30_000);
        const last = unpackRow(t.rows[29_999]);
        equal(last.label, 'pid 29999');
        equal(last.trace_id, 'pid 29999');
        equal(last.items.length, 1);
        equal(last.items[0].lane_label, 'tid 29999');
        equal(last.start, 29_999e-6);
        const r = t.store.rowIndexById.get(12_345)!;
        equal(t.store.strings[t.store.rowSource[r]], 'pid 12345');
        equal(t.store.rowsBySource.get(t.store.rowSource[r])?.join(), String(r));
      },
    },
    maxMs: 20_000,
  },
  {
    id: 'chrome-deep-args',
    issue: '49.5',
    why: 'args nested 5,000 deep made rows and export fail with "Maximum call stack size exceeded"',
    name: 'deep-args.json',
    make: () => text(deepChromeArgs(5000)),
    expect: {
      opens: (t) => {
        equal(t.summary.spans, 2);
        equal(
          t.summary.notices.includes('1 value in args nested deeper than 32 levels: cut to a note'),
          true,
        );
        // what overflowed before: the export (JSON.stringify of the args) and the rows' JSON
        equal(exportTrace(t, 'perfetto', 'deep.json').bytes.length > 0, true);
        equal(
          JSON.stringify(unpackRow(t.rows[0])).includes('[nested deeper than 32 levels]'),
          true,
        );
      },
    },
  },
  {
    id: 'timeline-deep-fields',
    issue: '49.5',
    why: 'trainer fields nested 5,000 deep made rows and export fail with no code',
    name: 'deep-fields.jsonl',
    make: () => text(deepTimelineFields(5000)),
    expect: {
      opens: (t) => {
        equal(t.summary.spans, 2);
        equal(
          t.summary.notices.includes('1 value nested deeper than 32 levels: cut to a note'),
          true,
        );
        equal(exportTrace(t, 'perfetto', 'deep.json').bytes.length > 0, true);
        equal(
          JSON.stringify(unpackRow(t.rows[0])).includes('[nested deeper than 32 levels]'),
          true,
        );
      },
    },
  },
  {
    id: 'slime-self-containing-attrs',
    issue: '49.5',
    why: "span attrs that contain themselves overflowed summary's attribute conversion (rows said pickle/cycle)",
    name: 'self-attrs.pt',
    make: () =>
      slimeDump((w) => {
        w.op(0x5d, 0x7d, 0x28).str('trace').op(0x7d, 0x28).str('events').op(0x5d, 0x7d, 0x28);
        w.str('type').str('span_start').str('ts').float(1).str('span_id').str('a');
        // attrs = {}; attrs["self"] = attrs (memo 0)
        w.str('attrs').op(0x7d).memoize().str('self').get(0).op(0x73);
        w.op(0x75, 0x61, 0x75, 0x75, 0x61);
      }),
    expect: { code: 'pickle/cycle' },
  },
  {
    id: 'chrome-ts-1.7e308',
    issue: '49.10',
    why: 'a ts of 1.7e308 printed "duration Infinity s" and exported "ts":null; it is skipped and said',
    name: 'huge-ts.json',
    make: () => text(hugeChromeTs()),
    expect: {
      opens: (t) => {
        equal(t.summary.spans, 1);
        // the one slice left, 5 us long: the axis is that slice's, not 1.7e302 s
        equal(Math.round(t.rows[0].duration * 1e9), 5000);
        equal(
          t.summary.notices[0],
          '1 event skipped: event 1 (byte 75) (ph X) has a ts out of range (1.7e+308 us)',
        );
        const exported = Buffer.from(exportTrace(t, 'perfetto', 'x.json').bytes).toString('utf8');
        equal(exported.includes('"ts":null') || exported.includes('"dur":null'), false);
        equal(exported.includes('"ts":0,'), true);
      },
    },
  },
  {
    id: 'timeline-sequence-1.7e308',
    issue: '49.10',
    why: 'sequence_id 1.7e308 on two ranks printed "Infinity" holes; such an id reads as missing',
    name: 'huge-sequence.jsonl',
    make: () => text(timelineHugeSequence()),
    expect: {
      opens: (t) => {
        equal(t.summary.spans, 4);
        equal(
          t.summary.notices.some((n) => n.includes('Infinity') || n.includes('holes')),
          false,
        );
      },
    },
  },
];

function equal(actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`expected ${String(expected)}, got ${String(actual)}`);
}
