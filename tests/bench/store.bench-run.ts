import { resolve } from 'node:path';
import { packRows } from '../../src-main/core/rows/packed-items';
import { it } from 'vitest';
import { buildStore } from '../../src-main/core/store/build-store';
import { queryRows } from '../../src-main/core/store/query-rows';
import type { Row } from '../../src-main/core/model/row';
import type { RowQuery } from '../../src-main/core/api/trace-api';
import { SLIME, readJson } from '../support/fixtures';

const ROWS = 100_000;

it('store queries on 100k rows', () => {
  const base = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows;
  const rows: Row[] = Array.from({ length: ROWS }, (_, i) => {
    const r = base[i % base.length];
    const shift = Math.floor(i / base.length) * 0.5;
    return { ...r, row_id: i, sample_index: i, start: r.start + shift, end: r.end + shift };
  });
  let t = performance.now();
  const store = buildStore({ rows: packRows(rows) });
  console.log(
    `buildStore: ${(performance.now() - t).toFixed(0)} ms for ${ROWS} rows, ${store.itemCount} items`,
  );
  const queries: [string, RowQuery, (rs: Row[]) => Row[]][] = [
    [
      'sort by duration',
      { sort: 'duration', descending: true },
      (rs) => [...rs].sort((a, b) => b.end - b.start - (a.end - a.start)),
    ],
    [
      'filter status',
      { sort: 'row_id', filter: { statuses: ['completed'] } },
      (rs) => rs.filter((r) => r.status === 'completed'),
    ],
    [
      'span name present',
      { sort: 'start', filter: { spanName: 'tool_call' } },
      (rs) =>
        rs
          .filter((r) => r.items.some((i) => i.name === 'tool_call'))
          .sort((a, b) => a.start - b.start),
    ],
    [
      'reward range',
      { sort: 'reward', filter: { rewardMin: 0.5 } },
      (rs) => rs.filter((r) => typeof r.reward === 'number' && r.reward >= 0.5),
    ],
    [
      'text (first, builds index)',
      { sort: 'row_id', filter: { text: 'python' } },
      (rs) => rs.filter((r) => JSON.stringify(r).includes('python')),
    ],
    [
      'text (again)',
      { sort: 'row_id', filter: { text: 'gsm8k' } },
      (rs) => rs.filter((r) => JSON.stringify(r).includes('gsm8k')),
    ],
  ];
  for (const [name, query, naive] of queries) {
    t = performance.now();
    const order = queryRows(store, query);
    const ours = performance.now() - t;
    t = performance.now();
    naive(rows);
    const baseline = performance.now() - t;
    console.log(
      `${name}: ${ours.toFixed(1)} ms (${order.length} rows); naive over Row objects ${baseline.toFixed(1)} ms; ratio ${(ours / baseline).toFixed(2)}`,
    );
  }
});
