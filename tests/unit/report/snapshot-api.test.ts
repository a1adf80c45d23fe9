import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ingest } from '../../../src-main/ingest/open-sources';
import { fileCalls } from '../../../src-main/ingest/file-calls';
import { buildReportSnapshot } from '../../../src-main/core/report/build-report-snapshot';
import { snapshotApi } from '../../../src-renderer/report/snapshot-api';
import { SLIME } from '../../support/fixtures';

// The report page's TraceApi answers what the worker answered: the same orders, rows, spans.
describe('snapshotApi', () => {
  const path = resolve(SLIME, 'rollout_8.pt');
  const trace = ingest({ sources: [{ kind: 'path', path }] });
  const calls = fileCalls(trace, [{ kind: 'path', path }]);
  const snapshot = buildReportSnapshot(
    [{ summary: { ...trace.summary, fileId: path, path }, calls }],
    { withContent: false, compare: false, madeAt: new Date(0) },
  );
  const api = snapshotApi(snapshot.snapshot, (i) => snapshot.details[i]);
  const id = 'file-0';

  it('answers orders as the store does, sorted, reversed and filtered', async () => {
    const ids = async (q: Parameters<typeof calls.queryRows>[0]) =>
      Array.from((await api.queryRows(id, q)).rowIds);
    const store = (q: Parameters<typeof calls.queryRows>[0]) =>
      Array.from(calls.queryRows(q).rowIds);
    expect(await ids({ sort: 'duration' })).toEqual(store({ sort: 'duration' }));
    expect(await ids({ sort: 'reward', descending: true })).toEqual(
      store({ sort: 'reward', descending: true }),
    );
    const status = trace.summary.statuses[0];
    const filter = { statuses: [status], attempts: trace.summary.attempts.slice(0, 1) };
    expect(await ids({ sort: 'start', filter })).toEqual(store({ sort: 'start', filter }));
    expect(await ids({ sort: 'row_id', filter: { rowIds: [5, 2] } })).toEqual([2, 5]);
  });

  it('answers rows and spans, and refuses what a report does not hold with a code', async () => {
    const [row] = await api.getRows(id, [3]);
    expect(row.items.map((i) => i.name)).toEqual(calls.getRows([3])[0].items.map((i) => i.name));
    const span = row.items.find((i) => i.kind === 'span')!;
    expect((await api.getSpan(id, 3, span.index)).startSec).toBe(
      calls.getSpan(3, span.index).startSec,
    );
    await expect(api.queryRows(id, { sort: 'start', filter: { text: 'x' } })).rejects.toThrow(
      /report\/not-included/,
    );
    await expect(api.exportTrace(id, 'csv')).rejects.toThrow(/report\/not-included/);
    const opened = await api.open({ sources: [], openId: 'x' });
    expect(opened.ok ? null : opened.error.code).toBe('report/read-only');
  });
});
