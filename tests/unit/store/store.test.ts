import { resolve } from 'node:path';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import { sampleDurations } from '../../../src-main/core/store/sample-duration';
import { buildStore, type TraceStore } from '../../../src-main/core/store/build-store';
import { queryRows } from '../../../src-main/core/store/query-rows';
import { getRowViews, getSpanDetails } from '../../../src-main/core/store/row-views';
import { buildStoreStats } from '../../../src-main/core/store/store-stats';
import { sourceText, type Row } from '../../../src-main/core/model/row';
import type { RowQuery, SortKey } from '../../../src-main/core/api/trace-api';
import { SLIME, readJson, slimeFixturesWithExpected } from '../../support/fixtures';

const rows = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows;
// built inside each test: code run while the file is collected is invisible to mutation testing
const freshStore = () => buildStore({ rows: packRows(rows) });
const ids = (list: Row[]) => list.map((r) => r.row_id);

describe('columnar store over real rows', () => {
  it('holds every item in typed columns and counts them', () => {
    const store = freshStore();
    const items = rows.reduce((n, r) => n + r.items.length, 0);
    expect(store.itemCount).toBe(items);
    expect(store.itemStart).toBeInstanceOf(Float64Array);
    const stats = buildStoreStats(store);
    expect(stats.spans).toBe(rows.flatMap((r) => r.items).filter((i) => i.type === 'span').length);
    expect(stats.statuses).toEqual([...new Set(rows.map((r) => r.status!))].sort());
    expect(Object.isFrozen(store)).toBe(true);
  });

  it('filters by status, source, span name, attempt and text exactly as a plain filter would', () => {
    const store = freshStore();
    const status = rows[0].status!;
    expect(
      Array.from(queryRows(store, { sort: 'row_id', filter: { statuses: [status] } })),
    ).toEqual(ids(rows.filter((r) => r.status === status)));
    const source = sourceText(rows[1].source)!;
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { sources: [source] } }))).toEqual(
      ids(rows.filter((r) => sourceText(r.source) === source)),
    );
    expect(
      Array.from(queryRows(store, { sort: 'row_id', filter: { spanName: 'tool_call' } })),
    ).toEqual(ids(rows.filter((r) => r.items.some((i) => i.name === 'tool_call'))));
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { attempts: [1] } }))).toEqual(
      ids(rows.filter((r) => r.attempt === 1)),
    );
    const tool = rows
      .flatMap((r) => r.items)
      .find((i) => i.type === 'span' && i.name === 'tool_call')!;
    const toolName = String(
      (tool as { attrs: { start_attrs: Record<string, unknown> } }).attrs.start_attrs.tool,
    );
    expect(
      Array.from(queryRows(store, { sort: 'row_id', filter: { text: toolName.toUpperCase() } })),
    ).toEqual(
      ids(
        rows.filter((r) => JSON.stringify(r.items).toLowerCase().includes(toolName.toLowerCase())),
      ),
    );
  });

  it('sorts by duration and reward, stable by row id, rows without a reward last', () => {
    const store = freshStore();
    const byGroupDuration = Array.from(
      queryRows(store, { sort: 'group_duration', descending: true }),
    );
    expect(byGroupDuration).toEqual(
      ids([...rows].sort((a, b) => b.end - b.start - (a.end - a.start) || a.row_id - b.row_id)),
    );
    const byReward = Array.from(queryRows(store, { sort: 'reward' }));
    const rewardOf = (r: Row) =>
      typeof r.reward === 'number'
        ? r.reward
        : r.reward && typeof r.reward === 'object'
          ? Number((r.reward as { score?: number }).score ?? NaN)
          : NaN;
    const rewarded = rows
      .filter((r) => !Number.isNaN(rewardOf(r)))
      .sort((a, b) => rewardOf(a) - rewardOf(b) || a.row_id - b.row_id);
    expect(byReward.slice(0, rewarded.length)).toEqual(ids(rewarded));
  });

  it('row views carry relative times, flags and hints; span details equal the row’s attrs', () => {
    const store = freshStore();
    const [view] = getRowViews(store, [rows[0].row_id]);
    expect(view.items).toHaveLength(rows[0].items.length);
    expect(view.startSec).toBeCloseTo(rows[0].start - store.globalStartSec, 9);
    expect(view.items.filter((i) => i.ongoing).length).toBe(rows[0].open_span_count);
    const k = rows[0].items.findIndex(
      (i) => i.name === 'sglang_generate' && i.type === 'span' && i.end_ts !== null,
    );
    const details = getSpanDetails(store, rows[0].row_id, k);
    expect(details.endAttrs).toEqual(
      (rows[0].items[k] as { attrs: { end_attrs: unknown } }).attrs.end_attrs,
    );
    expect(view.items[k].hint).toMatch(/tok$/);
  });
});

/** What each sort key reads; a Record so that a new SortKey fails to compile until it is here. */
const keyOf: Record<SortKey, (s: TraceStore, r: number) => number> = {
  start: (s, r) => s.rowStart[r],
  duration: (s, r) => sampleDurations(s)[r],
  group_duration: (s, r) => s.rowEnd[r] - s.rowStart[r],
  reward: (s, r) => s.rowReward[r],
  lane_count: (s, r) => s.rowLaneCount[r],
  ongoing: (s, r) => s.rowOpenCount[r],
  sample_index: (s, r) => s.rowSampleIndex[r],
  group: (s, r) => s.rowGroup[r],
  row_id: (s, r) => s.rowId[r],
};
const sortKeys = Object.keys(keyOf) as SortKey[];

/** The order queryRows must give, by a plain comparator sort: keyed rows by key then row id, NaN keys last by row index. */
function referenceOrder(
  s: TraceStore,
  query: RowQuery,
  keep: (r: number) => boolean = () => true,
): number[] {
  const key = (r: number) => keyOf[query.sort](s, r);
  const shown = Array.from({ length: s.rowCount }, (_, r) => r).filter(keep);
  const keyed = shown.filter((r) => !Number.isNaN(key(r)));
  const nan = shown.filter((r) => Number.isNaN(key(r)));
  keyed.sort(
    (a, b) => (query.descending ? key(b) - key(a) : key(a) - key(b)) || s.rowId[a] - s.rowId[b],
  );
  return [...keyed, ...nan].map((r) => s.rowId[r]);
}

/** n rows with row ids 0..n-1 and every sort column 0, to be filled in by a test. */
function blankStore(n: number): TraceStore {
  const template = {
    label: null,
    trace_id: null,
    duration: 0,
    item_count: 0,
    closed_span_count: 0,
    point_event_count: 0,
    orphan_count: 0,
    total_response_length: 0,
    max_response_length: 0,
    items: [],
  };
  const synthetic: Row[] = Array.from({ length: n }, (_, i) => ({
    ...template,
    row_id: i,
    sample_index: i,
    group_index: 0,
    source: i % 3 ? 'a' : 'b',
    status: i % 2 ? 'ok' : 'failed',
    reward: 0,
    attempt: 1,
    start: 0,
    end: 0,
    lane_count: 0,
    open_span_count: 0,
  }));
  return buildStore({ rows: packRows(synthetic) });
}

/** ~50k rows whose columns hold ties, NaN, negatives, -0, ±Infinity and int32 extremes; row ids shuffled, some repeated. */
function syntheticStore(n: number): TraceStore {
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const special = [
    NaN,
    -0,
    0,
    Infinity,
    -Infinity,
    -1,
    1,
    -1e-300,
    5e-324,
    -Number.MAX_VALUE,
    Number.MAX_VALUE,
    0.1 + 0.2,
    0.3,
  ];
  const float = () => {
    const p = random();
    if (p < 0.3) return pick(special);
    if (p < 0.6) return Math.floor(random() * 20) - 10; // many ties
    return (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6);
  };
  const int = () =>
    random() < 0.1 ? pick([-(2 ** 31), 2 ** 31 - 1, 0, -1]) : Math.floor(random() * 40) - 20;
  const s = blankStore(n);
  for (let r = 0; r < n; r++) {
    s.rowStart[r] = float();
    s.rowEnd[r] = random() < 0.5 ? s.rowStart[r] + pick([0, 1, -0]) : float();
    s.rowReward[r] = float();
    s.rowSampleIndex[r] = float();
    s.rowGroup[r] = random() < 0.5 ? Math.floor(random() * 5) : float();
    s.rowLaneCount[r] = int();
    s.rowOpenCount[r] = int();
  }
  const shuffled = Array.from({ length: n }, (_, i) => i - Math.floor(n / 3)); // negative ids too
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  for (let r = 0; r < n; r++)
    s.rowId[r] = random() < 0.01 ? pick([-(2 ** 31), 2 ** 31 - 1, 7]) : shuffled[r];
  return s;
}

describe('queryRows sorts exactly as a plain comparator sort', () => {
  it.each(slimeFixturesWithExpected().map((f) => [f.name, f.expectedPath]))(
    'on fixture %s, every sort key, both directions',
    (_name, expectedPath) => {
      const s = buildStore({ rows: packRows(readJson<{ rows: Row[] }>(expectedPath).rows) });
      for (const sort of sortKeys) {
        for (const descending of [false, true]) {
          expect(
            Array.from(queryRows(s, { sort, descending })),
            `${sort}${descending ? ' desc' : ''}`,
          ).toEqual(referenceOrder(s, { sort, descending }));
        }
      }
    },
  );

  // built on first use inside a test (see freshStore), once: 50k rows take a while
  let syntheticCache: TraceStore | undefined;
  const syntheticRows = () => (syntheticCache ??= syntheticStore(50_000));
  it('synthetic store holds the hard cases it is meant to', () => {
    const synthetic = syntheticRows();
    const all = [...synthetic.rowStart, ...synthetic.rowReward];
    expect(all.some((v) => Object.is(v, -0)) && all.some((v) => Object.is(v, 0))).toBe(true);
    expect(all.some(Number.isNaN) && all.includes(Infinity) && all.includes(-Infinity)).toBe(true);
    expect(new Set(synthetic.rowId).size).toBeLessThan(synthetic.rowCount); // a few repeated ids
    expect(synthetic.rowLaneCount).toContain(-(2 ** 31));
  });

  it.each(sortKeys)(
    'on 50k synthetic rows by %s, both directions, with and without a filter',
    (sort) => {
      const synthetic = syntheticRows();
      for (const descending of [false, true]) {
        expect(Array.from(queryRows(synthetic, { sort, descending }))).toEqual(
          referenceOrder(synthetic, { sort, descending }),
        );
        const ok = synthetic.strings.indexOf('ok');
        expect(
          Array.from(queryRows(synthetic, { sort, descending, filter: { statuses: ['ok'] } })),
        ).toEqual(
          referenceOrder(synthetic, { sort, descending }, (r) => synthetic.rowStatus[r] === ok),
        );
      }
    },
  );

  it('rows already or nearly in order: keys differing in their low 32 bits only, ties with ids out of order', () => {
    const s = blankStore(2000);
    for (let r = 0; r < s.rowCount; r++) s.rowStart[r] = 1 + r * 2 ** -40; // same high word
    // a store is frozen once built and its orders are kept per store: each change below is
    // checked on a new store object over the changed columns
    const check = () => {
      const changed = { ...s };
      for (const sort of sortKeys) {
        for (const descending of [false, true]) {
          expect(Array.from(queryRows(changed, { sort, descending }))).toEqual(
            referenceOrder(s, { sort, descending }),
          );
        }
      }
    };
    check();
    [s.rowStart[700], s.rowStart[701]] = [s.rowStart[701], s.rowStart[700]]; // falls in the low word only
    check();
    [s.rowId[1500], s.rowId[1501]] = [s.rowId[1501], s.rowId[1500]]; // falls where keys tie
    check();
    for (let r = 0; r < s.rowCount; r++) s.rowId[r] = s.rowCount - r; // every id falls where keys tie
    check();
  });

  it('empty and single-row selections', () => {
    const synthetic = syntheticRows();
    expect(
      Array.from(queryRows(synthetic, { sort: 'start', filter: { statuses: ['none'] } })),
    ).toEqual([]);
    expect(
      Array.from(
        queryRows(buildStore({ rows: packRows([]) }), { sort: 'duration', descending: true }),
      ),
    ).toEqual([]);
    expect(
      Array.from(queryRows(buildStore({ rows: packRows([rows[3]]) }), { sort: 'reward' })),
    ).toEqual([rows[3].row_id]);
  });
});

describe('sort by the sample’s own duration', () => {
  // rollout_small (slime's cache): every sample of a group carries a copy of the group's
  // generate_and_rm_group span, same name and times, so whole-row durations tie within a group
  const small = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_small.pt.expected.json')).rows;
  /** A reference: the row's items without spans another row of its group has too. */
  const ownDuration = (row: Row) => {
    const key = (r: Row, i: Row['items'][number]) =>
      i.type === 'span'
        ? `${String(r.group_index)}|${i.name}|${i.start_ts}|${i.display_end_ts}`
        : '';
    const shared = (i: Row['items'][number]) =>
      i.type === 'span' &&
      small.some(
        (o) =>
          o !== row &&
          o.group_index === row.group_index &&
          o.items.some((j) => key(o, j) === key(row, i)),
      );
    const own = row.items.filter((i) => !shared(i));
    const times = own.flatMap((i) => (i.type === 'span' ? [i.start_ts, i.display_end_ts] : [i.ts]));
    return times.length ? Math.max(...times) - Math.min(...times) : row.end - row.start;
  };

  it('ties no more within a group, and matches the reference', () => {
    const smallStore = buildStore({ rows: packRows(small) }); // inside the test: see freshStore
    const group0 = small.filter((r) => r.group_index === 0);
    expect(new Set(group0.map((r) => r.end - r.start)).size).toBe(1);
    expect(new Set(group0.map(ownDuration)).size).toBeGreaterThan(1);
    small.forEach((row, r) =>
      expect(sampleDurations(smallStore)[r]).toBeCloseTo(ownDuration(row), 9),
    );
    const byDuration = Array.from(queryRows(smallStore, { sort: 'duration', descending: true }));
    expect(byDuration).toEqual(
      ids([...small].sort((a, b) => ownDuration(b) - ownDuration(a) || a.row_id - b.row_id)),
    );
  });
});
