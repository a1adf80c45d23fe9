import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import { buildStoreStats } from '../../../src-main/core/store/store-stats';
import { sourceText, type Row } from '../../../src-main/core/model/row';
import { readJson, slimeFixturesWithExpected } from '../../support/fixtures';
import { point, row, span } from './hand-rows';

/** The summary's counts as a plain reading of the rows gives them (no store involved). */
function referenceStats(rows: Row[]) {
  const items = rows.flatMap((r) => r.items);
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.name, (counts.get(item.name) ?? 0) + 1);
  const spanCounts = new Map<string, number>();
  for (const item of items)
    if (item.type === 'span') spanCounts.set(item.name, (spanCounts.get(item.name) ?? 0) + 1);
  const distinct = (values: (string | null)[]) =>
    [...new Set(values.filter((v): v is string => v !== null))].sort();
  return {
    rows: rows.length,
    spans: items.filter((i) => i.type === 'span').length,
    events: items.filter((i) => i.type !== 'span').length,
    links: items.reduce((n, i) => n + (i.links?.length ?? 0), 0),
    statuses: distinct(rows.map((r) => r.status)),
    sources: distinct(rows.map((r) => sourceText(r.source))),
    attempts: [
      ...new Set(rows.map((r) => r.attempt).filter((a): a is number => typeof a === 'number')),
    ].sort((a, b) => a - b),
    spanNames: [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([name, count]) => ({ name, count })),
    // spans only (events are markers, not bars); slime's spans have no category
    barCounts: [...spanCounts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([name, count]) => ({ name, count })),
    globalStartSec: rows.length ? Math.min(...rows.map((r) => r.start)) : null,
    globalEndSec: rows.length ? Math.max(...rows.map((r) => r.end)) : null,
  };
}

describe('store stats (file summary and filter menus)', () => {
  it.each(slimeFixturesWithExpected().map((f) => [f.name, f.expectedPath]))(
    'on %s equal a plain count of slime’s cache rows',
    (_name, expectedPath) => {
      const rows = readJson<{ rows: Row[] }>(expectedPath).rows;
      expect(buildStoreStats(buildStore({ rows: packRows(rows) }))).toEqual(referenceStats(rows));
    },
  );

  it('counts links, leaves out missing statuses, sources and non-numeric attempts', () => {
    const rows = [
      row({
        row_id: 1,
        start: 10,
        end: 14,
        status: 'ok',
        source: null,
        attempt: 3,
        items: [
          span({
            name: 'b',
            start_ts: 10,
            links: [
              { trace_id: 't', span_id: 'x', dangling: true },
              { trace_id: 't', span_id: 'y', dangling: false },
            ],
          }),
          point({ name: 'a', ts: 11 }),
          point({ name: 'b', ts: 12 }, 'orphan_end'),
        ],
      }),
      row({
        row_id: 2,
        start: 5,
        end: 20,
        status: null,
        source: 'zeta',
        attempt: 'retry',
        items: [
          span({
            name: 'a',
            start_ts: 6,
            links: [{ trace_id: 't', span_id: 'z', dangling: true }],
          }),
        ],
      }),
      row({ row_id: 3, start: 7, end: 8, status: 'failed', source: 'alpha', attempt: '1' }),
    ];
    // by hand: 2 spans, 2 points; 3 links; names a×2, b×2 (tie, by name); attempts 3 and "1"
    expect(buildStoreStats(buildStore({ rows: packRows(rows) }))).toEqual({
      rows: 3,
      spans: 2,
      events: 2,
      links: 3,
      statuses: ['failed', 'ok'],
      sources: ['alpha', 'zeta'],
      attempts: [1, 3],
      spanNames: [
        { name: 'a', count: 2 },
        { name: 'b', count: 2 },
      ],
      // the bars: the two spans, a point and an orphan end left out
      barCounts: [
        { name: 'a', count: 1 },
        { name: 'b', count: 1 },
      ],
      globalStartSec: 5,
      globalEndSec: 20,
    });
  });

  it('an empty file has no time range', () => {
    const stats = buildStoreStats(buildStore({ rows: packRows([]) }));
    expect(stats.globalStartSec).toBeNull();
    expect(stats.globalEndSec).toBeNull();
    expect(stats.spanNames).toEqual([]);
    expect(stats.barCounts).toEqual([]);
  });

  it('counts a span with a category under it, as the legend lists it', () => {
    const rows = [
      row({
        row_id: 1,
        start: 0,
        end: 9,
        items: [
          span({ name: 'gemm', start_ts: 1, category: 'computation' }),
          span({ name: 'nccl', start_ts: 2, category: 'communication' }),
          span({ name: 'gemm2', start_ts: 3, category: 'computation' }),
          span({ name: 'cpu_op', start_ts: 4 }),
          point({ name: 'gemm', ts: 5 }),
        ],
      }),
    ];
    expect(buildStoreStats(buildStore({ rows: packRows(rows) })).barCounts).toEqual([
      { name: 'computation', count: 2, category: true },
      { name: 'communication', count: 1, category: true },
      { name: 'cpu_op', count: 1 },
    ]);
  });
});
