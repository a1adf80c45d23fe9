import { resolve } from 'node:path';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src-main/core/model/row';
import { buildStore } from '../../../src-main/core/store/build-store';
import { queryRows } from '../../../src-main/core/store/query-rows';
import {
  activeConditionCount,
  isFilterActive,
  parseBound,
  toggleInList,
} from '../../../src-renderer/state/filter-state';
import { SLIME, readJson } from '../../support/fixtures';

const rows = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_small.pt.expected.json')).rows;
const store = buildStore({ rows: packRows(rows) });

describe('toolbar filter state', () => {
  it('builds multi-select chip filters that the store applies as "any of"', () => {
    const statuses = [...new Set(rows.map((r) => r.status!))];
    let chosen = toggleInList<string>(undefined, statuses[0]);
    chosen = toggleInList(chosen, statuses[1]);
    const shown = queryRows(store, { sort: 'row_id', filter: { statuses: chosen } });
    expect(Array.from(shown)).toEqual(
      rows.filter((r) => r.status === statuses[0] || r.status === statuses[1]).map((r) => r.row_id),
    );
    chosen = toggleInList(chosen, statuses[0]);
    chosen = toggleInList(chosen, statuses[1]);
    expect(chosen).toBeUndefined();
  });

  it('knows when a filter narrows and counts its conditions', () => {
    expect(isFilterActive({})).toBe(false);
    expect(isFilterActive({ text: '', statuses: [] })).toBe(false);
    expect(isFilterActive({ rewardMin: 0 })).toBe(true);
    expect(activeConditionCount({ text: 'x', rewardMin: 0, rewardMax: 1, attempts: [1] })).toBe(3);
  });

  it('reads reward bounds typed by a user, and the store keeps rows inside them', () => {
    expect(parseBound('')).toBeUndefined();
    expect(parseBound('abc')).toBeUndefined();
    expect(parseBound('-0.5')).toBe(-0.5);
    const min = parseBound('0.5')!;
    const shown = queryRows(store, { sort: 'row_id', filter: { rewardMin: min } });
    // a dict reward (several reward models) is ranged by its "score", as slime's reward_key does
    const numeric = (r: Row) =>
      typeof r.reward === 'number'
        ? r.reward
        : r.reward && typeof r.reward === 'object' && !Array.isArray(r.reward)
          ? (r.reward.score as number)
          : null;
    expect(rows.some((r) => typeof r.reward === 'object' && r.reward !== null)).toBe(true);
    expect(Array.from(shown)).toEqual(
      rows.filter((r) => numeric(r) !== null && numeric(r)! >= min).map((r) => r.row_id),
    );
  });
});
