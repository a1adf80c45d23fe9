import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ingest } from '../../../src-main/ingest/open-sources';
import { fileCalls } from '../../../src-main/ingest/file-calls';
import { buildReportSnapshot } from '../../../src-main/core/report/build-report-snapshot';
import { snapshotApi } from '../../../src-renderer/report/snapshot-api';
import type { NotInReportError } from '../../../src-renderer/report/snapshot-api';
import type { RowFilter } from '../../../src-main/core/api/trace-api';
import { OTLP, SLIME } from '../../support/fixtures';

/** A report of one fixture, its page's TraceApi and the worker's calls it was made from. */
function reportOf(path: string, withContent = false) {
  const trace = ingest({ sources: [{ kind: 'path', path }] });
  const calls = fileCalls(trace, [{ kind: 'path', path }]);
  const snapshot = buildReportSnapshot(
    [{ summary: { ...trace.summary, fileId: path, path }, calls }],
    { withContent, compare: false, madeAt: new Date(0) },
  );
  const refusals: NotInReportError[] = [];
  const api = snapshotApi(
    snapshot.snapshot,
    (i) => snapshot.details[i],
    (e) => refusals.push(e),
  );
  /** the rows the report's page shows for a filter, and the rows the app's store shows */
  const both = async (filter: RowFilter) => ({
    report: Array.from((await api.queryRows('file-0', { sort: 'start', filter })).rowIds),
    store: Array.from(calls.queryRows({ sort: 'start', filter }).rowIds),
  });
  return { trace, calls, api, refusals, both };
}

// The report page's TraceApi answers what the worker answered: the same orders, rows, spans.
describe('snapshotApi', () => {
  const path = resolve(SLIME, 'rollout_8.pt');
  const { trace, calls, api, refusals, both } = reportOf(path);
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
    const before = refusals.length;
    await expect(api.exportTrace(id, 'csv')).rejects.toThrow(/report\/not-included/);
    await expect(api.getLazyValues(id, 3, ['tokens'])).rejects.toThrow(/report\/not-included/);
    expect(refusals.length).toBe(before + 2);
    const opened = await api.open({ sources: [], openId: 'x' });
    expect(opened.ok ? null : opened.error.code).toBe('report/read-only');
  });

  it('searches and filters as the store does: text, span name, reward range', async () => {
    const row = calls.getRows([5])[0];
    const span = row.items.find((i) => i.kind === 'span' && i.name.startsWith('sglang'))!;
    const finish = calls.getSpan(5, span.index).endAttrs;
    const kept = Object.entries(finish).find(([, v]) => typeof v === 'string' && v.length < 20);
    expect(kept).toBeDefined();
    const filters: RowFilter[] = [
      { text: '#5' },
      { text: trace.summary.statuses.at(-1)! },
      { text: trace.summary.sources[0].toUpperCase() },
      { text: span.name },
      { text: `${kept![0]}=${String(kept![1])}` },
      { text: 'no such words anywhere' },
      { spanName: 'tool_call' },
      { spanName: 'sglang_*' },
      { rewardMin: 0.5 },
      { rewardMin: 0.1, rewardMax: 0.9 },
      { text: 'sglang_pd_decode', statuses: [trace.summary.statuses[0]], rewardMax: 0.5 },
    ];
    const before = refusals.length;
    const shown = new Set<number>();
    for (const filter of filters) {
      const { report, store } = await both(filter);
      expect(report, JSON.stringify(filter)).toEqual(store);
      shown.add(store.length);
    }
    // the filters pick different rows: none of the comparisons is of all rows or of none only
    expect(shown.size).toBeGreaterThan(4);
    expect(refusals.length).toBe(before);
  });
});

describe('snapshotApi on a trace', () => {
  const { calls, both, refusals } = reportOf(resolve(OTLP, 'sglang_otel_trace.json'));

  it('searches span names, attributes and trace ids; filters names with ids as patterns', async () => {
    const [row] = calls.getRows([0]);
    const traceId = row.traceId!;
    const span = row.items.find((i) => i.kind === 'span')!;
    const attrs = calls.getSpan(0, span.index).startAttrs;
    const [key, value] = Object.entries(attrs).find(([, v]) => typeof v === 'number')!;
    for (const filter of [
      { text: traceId.slice(4, 20) },
      { text: `${key}=${String(value)}` },
      { text: span.name.slice(0, 5) },
      { spanName: span.name.replace(/\d{3,}/g, '*') },
    ] satisfies RowFilter[]) {
      const { report, store } = await both(filter);
      expect(store.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(report, JSON.stringify(filter)).toEqual(store);
    }
    expect(refusals).toEqual([]);
  });
});

describe('a report made without content', () => {
  // a sample's label (the task's answer) is content: redact-content.ts leaves it out
  it('does not find what it left out; with content it finds what the app finds', async () => {
    const { trace, both } = reportOf(resolve(SLIME, 'rollout_8.pt'));
    const label = String(trace.rows[0].label);
    const without = await both({ text: label });
    expect(without.store).toContain(0);
    expect(without.report).not.toContain(0);
    const withContent = await reportOf(resolve(SLIME, 'rollout_8.pt'), true).both({ text: label });
    // rows 10 and 11 hold the label's digits in their events' attributes only (issue 47)
    expect(withContent.store).toEqual(expect.arrayContaining([0, 10, 11]));
    expect(withContent.report).toEqual(withContent.store);
    // SGLang's spans carry attributes only on spans, which a report keeps whole with content
    const otlp = await reportOf(resolve(OTLP, 'sglang_otel_trace.json'), true).both({
      text: 'qwen3-8b',
    });
    expect(otlp.store.length).toBeGreaterThan(0);
    expect(otlp.report).toEqual(otlp.store);
  });
});

describe("a report's search with content", () => {
  it("finds what the store finds in events' attributes, and nothing it does not", async () => {
    const { calls, both } = reportOf(resolve(SLIME, 'rollout_8.pt'), true);
    const row = calls.getRows([10])[0];
    const points = row.items.filter((item) => item.kind !== 'span');
    expect(points.length).toBeGreaterThan(0);
    const texts = points.flatMap((item) =>
      Object.entries(calls.getSpan(10, item.index).startAttrs).map(
        ([key, value]) => `${key}=${String(value)}`,
      ),
    );
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      const { report, store } = await both({ text });
      expect(store, text).toContain(10);
      expect(report, text).toEqual(store);
    }
    // a span's OTLP facts but its service are shown in details, not searched by the store
    const otlp = reportOf(resolve(OTLP, 'sglang_otel_trace.json'), true);
    for (const text of ['missingparent', 'status_code=', 'kind=']) {
      const { report, store } = await otlp.both({ text });
      expect(report, text).toEqual(store);
    }
  });
});
