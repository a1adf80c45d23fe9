import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../../../src-main/core/store/build-store';
import { queryRows } from '../../../src-main/core/store/query-rows';
import { getRowViews, getSpanDetails } from '../../../src-main/core/store/row-views';
import { buildStoreStats } from '../../../src-main/core/store/store-stats';
import type { Row } from '../../../src-main/core/model/row';
import { SLIME, readJson } from '../../support/fixtures';

const rows = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows;
const store = buildStore({ rows });
const ids = (list: Row[]) => list.map((r) => r.row_id);

describe('columnar store over real rows', () => {
  it('holds every item in typed columns and counts them', () => {
    const items = rows.reduce((n, r) => n + r.items.length, 0);
    expect(store.itemCount).toBe(items);
    expect(store.itemStart).toBeInstanceOf(Float64Array);
    const stats = buildStoreStats(store);
    expect(stats.spans).toBe(rows.flatMap((r) => r.items).filter((i) => i.type === 'span').length);
    expect(stats.statuses).toEqual([...new Set(rows.map((r) => r.status!))].sort());
    expect(Object.isFrozen(store)).toBe(true);
  });

  it('filters by status, source, span name, attempt and text exactly as a plain filter would', () => {
    const status = rows[0].status!;
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { statuses: [status] } }))).toEqual(ids(rows.filter((r) => r.status === status)));
    const source = rows[1].source!;
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { sources: [source] } }))).toEqual(ids(rows.filter((r) => r.source === source)));
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { spanName: 'tool_call' } }))).toEqual(
      ids(rows.filter((r) => r.items.some((i) => i.name === 'tool_call'))),
    );
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { attempts: [1] } }))).toEqual(ids(rows.filter((r) => r.attempt === 1)));
    const tool = rows.flatMap((r) => r.items).find((i) => i.type === 'span' && i.name === 'tool_call')!;
    const toolName = String((tool as { attrs: { start_attrs: Record<string, unknown> } }).attrs.start_attrs.tool);
    expect(Array.from(queryRows(store, { sort: 'row_id', filter: { text: toolName.toUpperCase() } }))).toEqual(
      ids(rows.filter((r) => JSON.stringify(r.items).toLowerCase().includes(toolName.toLowerCase()))),
    );
  });

  it('sorts by duration and reward, stable by row id, rows without a reward last', () => {
    const byDuration = Array.from(queryRows(store, { sort: 'duration', descending: true }));
    expect(byDuration).toEqual(ids([...rows].sort((a, b) => b.end - b.start - (a.end - a.start) || a.row_id - b.row_id)));
    const byReward = Array.from(queryRows(store, { sort: 'reward' }));
    const rewardOf = (r: Row) => (typeof r.reward === 'number' ? r.reward : r.reward && typeof r.reward === 'object' ? Number((r.reward as { score?: number }).score ?? NaN) : NaN);
    const rewarded = rows.filter((r) => !Number.isNaN(rewardOf(r))).sort((a, b) => rewardOf(a) - rewardOf(b) || a.row_id - b.row_id);
    expect(byReward.slice(0, rewarded.length)).toEqual(ids(rewarded));
  });

  it('row views carry relative times, flags and hints; span details equal the row’s attrs', () => {
    const [view] = getRowViews(store, [rows[0].row_id]);
    expect(view.items).toHaveLength(rows[0].items.length);
    expect(view.startSec).toBeCloseTo(rows[0].start - store.globalStartSec, 9);
    expect(view.items.filter((i) => i.ongoing).length).toBe(rows[0].open_span_count);
    const k = rows[0].items.findIndex((i) => i.name === 'sglang_generate' && i.type === 'span' && i.end_ts !== null);
    const details = getSpanDetails(store, rows[0].row_id, k);
    expect(details.endAttrs).toEqual((rows[0].items[k] as { attrs: { end_attrs: unknown } }).attrs.end_attrs);
    expect(view.items[k].hint).toMatch(/tok$/);
  });
});
