import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import {
  getRowViews,
  getSpanDetails,
  rowFactsOf,
  rowOrderOf,
} from '../../../src-main/core/store/row-views';
import { row, span, point } from './hand-rows';

// One OTLP-like row with every extra the views carry, and a plain second row. Times are
// absolute; the file starts at 100 (row 8's start), so each view time is its ts - 100.
const phases = [
  { phase: 'bootstrap_queue', durationSec: 0.5 },
  { phase: 'forward', durationSec: 1 },
];
const rich = () =>
  row({
    row_id: 7,
    start: 101,
    end: 110,
    sample_index: 3,
    group_index: 2,
    source: 'gsm8k',
    status: 'completed',
    reward: { score: 0.5 },
    attempt: 1,
    trace_id: 'abc',
    label: 'L',
    lane_count: 3,
    open_span_count: 1,
    orphan_count: 1,
    items: [
      span({
        name: 'root',
        start_ts: 101,
        end_ts: 109,
        span_id: 's0',
        attrs: { start_attrs: {}, end_attrs: { completion_tokens: 512 } },
        lane_label: 'thread-1',
        links: [
          { trace_id: 'abc', span_id: 's1', dangling: false },
          { trace_id: 'zzz', span_id: 'elsewhere', dangling: true },
        ],
        otel: { kind: 'SERVER', status_code: 'ERROR' },
        service: 'router',
        error: true,
      }),
      span({
        name: 'prefill',
        start_ts: 102,
        end_ts: null,
        display_end_ts: 106,
        span_id: 's1',
        parent_span_id: 's0',
        parent_span_name: 'root',
        lane: 1,
        depth: 1,
        attempt: 1,
        attrs: { start_attrs: { tool: 'python' }, end_attrs: { clipped_by: 'row_end' } },
        pd: { role: 'prefill', phases, parentDurationSec: 8 },
        missing_parent: true,
      }),
      point({ name: 'tick', ts: 103, parent_span_id: 'gone', lane: 2, depth: 2, attrs: { k: 1 } }),
      point({ name: 'late end', ts: 104, span_id: 'q' }, 'orphan_end'),
      span({ name: 'plain', start_ts: 104.5, end_ts: 105, otel: { kind: 'INTERNAL' } }),
    ],
  });
// row 8 comes second, so its items start past row 7's in the store's columns
const plain = () =>
  row({
    row_id: 8,
    start: 100,
    end: 102,
    items: [
      point({ name: 'marker', ts: 100.5, span_id: 'm' }),
      // links to an event's span id are not links to a span; a numeric tool is no hint
      span({
        name: 'linked',
        start_ts: 101,
        end_ts: 101.5,
        links: [{ trace_id: 't', span_id: 'm', dangling: false }],
        attrs: { start_attrs: { tool: 3 }, end_attrs: {} },
      }),
    ],
  });
const store = () => buildStore({ rows: packRows([rich(), plain()]) });

describe('row views', () => {
  it('give each item its relative times, lane, kind, flags, hint, PD phases and in-row links', () => {
    const [view] = getRowViews(store(), [7]);
    // strict: a field left undefined is not the same as one left out
    expect(view).toMatchObject({
      rowId: 7,
      sampleIndex: 3,
      groupIndex: 2,
      source: 'gsm8k',
      status: 'completed',
      reward: { score: 0.5 },
      attempt: 1,
      traceId: 'abc',
      label: 'L',
      startSec: 1,
      endSec: 10,
      laneCount: 3,
      openSpanCount: 1,
      orphanCount: 1,
    });
    expect(view.items).toStrictEqual([
      {
        index: 0,
        kind: 'span',
        name: 'root',
        startSec: 1,
        endSec: 9,
        lane: 0,
        depth: 0,
        ongoing: false,
        parentIndex: -1,
        hint: '512 tok',
        error: true,
        laneLabel: 'thread-1',
        links: [1], // s1 is item 1; the other link leaves the row
      },
      {
        index: 1,
        kind: 'span',
        name: 'prefill',
        startSec: 2,
        endSec: 6,
        lane: 1,
        depth: 1,
        ongoing: true,
        clippedBy: 'row_end',
        parentIndex: 0,
        pd: { role: 'prefill', phases },
        hint: 'python',
      },
      {
        index: 2,
        kind: 'event',
        name: 'tick',
        startSec: 3,
        endSec: 3,
        lane: 2,
        depth: 2,
        ongoing: false,
        parentIndex: -1,
      },
      {
        index: 3,
        kind: 'orphan',
        name: 'late end',
        startSec: 4,
        endSec: 4,
        lane: 0,
        depth: 0,
        ongoing: false,
        parentIndex: -1,
      },
      {
        index: 4,
        kind: 'span',
        name: 'plain',
        startSec: 4.5,
        endSec: 5,
        lane: 0,
        depth: 0,
        ongoing: false,
        parentIndex: -1,
      },
    ]);
  });

  it('come in the asked order and skip unknown row ids', () => {
    expect(getRowViews(store(), [8, 99, 7]).map((v) => v.rowId)).toEqual([8, 7]);
    expect(getRowViews(store(), [8])[0]).toMatchObject({ startSec: 0, endSec: 2 });
    expect(getRowViews(store(), [8])[0].items).toStrictEqual([
      {
        index: 0,
        kind: 'event',
        name: 'marker',
        startSec: 0.5,
        endSec: 0.5,
        lane: 0,
        depth: 0,
        ongoing: false,
        parentIndex: -1,
      },
      {
        index: 1,
        kind: 'span',
        name: 'linked',
        startSec: 1,
        endSec: 1.5,
        lane: 0,
        depth: 0,
        ongoing: false,
        parentIndex: -1,
      },
    ]);
  });

  it('links to no span of the row are left out, not kept empty', () => {
    const only = row({
      row_id: 1,
      start: 0,
      end: 1,
      items: [
        span({
          name: 'x',
          start_ts: 0,
          links: [{ trace_id: 't', span_id: 'nope', dangling: true }],
        }),
      ],
    });
    expect(getRowViews(buildStore({ rows: packRows([only]) }), [1])[0].items[0]).not.toHaveProperty(
      'links',
    );
  });
});

describe('span details', () => {
  it('of a closed span: times, ids, attrs, OTLP fields and every link', () => {
    expect(getSpanDetails(store(), 7, 0)).toEqual({
      rowId: 7,
      index: 0,
      kind: 'span',
      name: 'root',
      state: 'closed_span',
      startSec: 1,
      endSec: 9,
      displayEndSec: 9,
      durationSec: 8,
      spanId: 's0',
      parentSpanId: null,
      parentSpanName: null,
      attempt: null,
      startAttrs: {},
      endAttrs: { completion_tokens: 512 },
      otel: { kind: 'SERVER', status_code: 'ERROR', service: 'router', missingParent: false },
      links: [
        { traceId: 'abc', spanId: 's1', dangling: false },
        { traceId: 'zzz', spanId: 'elsewhere', dangling: true },
      ],
    });
  });

  it('of an open span: no end, drawn to its display end, PD phases', () => {
    const details = getSpanDetails(store(), 7, 1);
    expect(details).toMatchObject({
      kind: 'span',
      state: 'open_span',
      startSec: 2,
      endSec: null,
      displayEndSec: 6,
      durationSec: 4,
      parentSpanId: 's0',
      parentSpanName: 'root',
      attempt: 1,
      pd: { role: 'prefill', phases, parentDurationSec: 8 },
    });
    expect(details).not.toHaveProperty('otel');
    expect(details).not.toHaveProperty('links');
  });

  it('of a point event: ends where it starts, its attrs as start attrs', () => {
    const details = getSpanDetails(store(), 7, 2);
    expect(details).toMatchObject({
      kind: 'event',
      state: 'point_event',
      startSec: 3,
      endSec: 3,
      displayEndSec: 3,
      durationSec: 0,
      startAttrs: { k: 1 },
      endAttrs: {},
    });
    expect(details).not.toHaveProperty('pd');
    expect(getSpanDetails(store(), 7, 3).kind).toBe('orphan');
  });

  it('of a span without service: service null, missing parent false unless set', () => {
    expect(getSpanDetails(store(), 7, 4).otel).toEqual({
      kind: 'INTERNAL',
      service: null,
      missingParent: false,
    });
  });

  it('throw a RangeError for an unknown row or item', () => {
    expect(() => getSpanDetails(store(), 99, 0)).toThrow(new RangeError('no item 0 in row 99'));
    expect(() => getSpanDetails(store(), 7, 5)).toThrow(new RangeError('no item 5 in row 7'));
  });
});

describe('row order and row facts', () => {
  it('an order is the ids given, the row count and the store it came from', () => {
    const built = store();
    const order = rowOrderOf(built, Int32Array.from([8, 7]));
    expect(Array.from(order.rowIds)).toEqual([8, 7]);
    expect(order.total).toBe(2);
    expect(order.storeVersion).toBe(built.version);
    expect(rowOrderOf(built, new Int32Array(0)).total).toBe(2);
  });

  it('facts are each row’s id, lanes and relative times in the store’s order', () => {
    const built = store();
    const facts = rowFactsOf(built);
    expect(facts.storeVersion).toBe(built.version);
    expect(Array.from(facts.rowIds!)).toEqual([7, 8]);
    expect(Array.from(facts.laneCounts)).toEqual([3, 1]);
    expect(Array.from(facts.startSec)).toEqual([1, 0]);
    expect(Array.from(facts.endSec)).toEqual([10, 2]);
    expect(facts.startSec).toBeInstanceOf(Float64Array);
  });

  it('facts leave the ids out when each row’s id is its place (0..n-1)', () => {
    const withIds = (ids: number[]) =>
      rowFactsOf(
        buildStore({ rows: packRows(ids.map((id) => row({ row_id: id, start: 0, end: 1 }))) }),
      );
    expect(withIds([0, 1, 2]).rowIds).toBeNull();
    expect(Array.from(withIds([1, 0, 2]).rowIds!)).toEqual([1, 0, 2]);
    expect(Array.from(withIds([1, 2]).rowIds!)).toEqual([1, 2]);
  });

  it('every store built has a version of its own', () => {
    const a = store();
    const b = store();
    expect(b.version).not.toBe(a.version);
  });
});
