import type { OpenedTrace } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import {
  asyncOverlap,
  asyncSameId,
  flowFanout,
  nestedFlows,
  timelineOverlap,
} from '../../bench/hostile-writers.mjs';
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
];

function equal(actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`expected ${String(expected)}, got ${String(actual)}`);
}
