import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { validateCall } from '../../../src-main/api/validate-call';
import { BadCallError, NotFoundError } from '../../../src-main/core/api/call-errors';
import type { GroupPage, PerfDigest, SharedBins } from '../../../src-main/core/api/trace-api';
import { serveCaller } from '../../support/serve-call';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { ingestInThread } from '../../support/in-thread-ingest';
import type { Row } from '../../../src-main/core/model/row';
import { SLIME, readJson } from '../../support/fixtures';

// The perf calls (getPerf's digest, getPerfBinRows, getPerfGroups, comparePerfDistribution):
// argument checks shared by both transports (dispatch-call.ts validates for IPC and HTTP), then
// the real service over the ingest session behind serve mode's HTTP transport.

describe('argument checks', () => {
  const bad = (method: string, args: unknown[]) => () => validateCall(method, args);

  it('let well-formed perf calls through', () => {
    expect(validateCall('getPerfBinRows', ['f1', 'e2e latency', 3]).method).toBe('getPerfBinRows');
    const page = { sort: 'wall', filter: 'resumed', offset: 100, limit: 100 };
    expect(validateCall('getPerfGroups', ['f1', page]).args).toEqual(['f1', page]);
    // reversed, and by a run's figure per row (the groups view's run columns)
    const rowFigure = { combine: 'ratio', rowIds: [0, 3], values: [1.5, 0], weights: [2, 0] };
    const byFigure = { ...page, reverse: true, rowFigure };
    expect(validateCall('getPerfGroups', ['f1', byFigure]).args).toEqual(['f1', byFigure]);
    expect(
      validateCall('comparePerfDistribution', ['a', 'b', { kind: 'duration', name: 'sample' }])
        .args,
    ).toHaveLength(3);
  });

  it('refuse a bin that is not a small whole number, a missing key and foreign kinds', () => {
    for (const args of [
      ['f1', 'e2e latency', -1],
      ['f1', 'e2e latency', 1.5],
      ['f1', 'e2e latency', 1000],
      ['f1', 'e2e latency', '3'],
      ['f1', '', 3],
      ['f1', 'e2e latency'],
    ])
      expect(bad('getPerfBinRows', args)).toThrow(BadCallError);
    expect(bad('getPerfGroups', ['f1'])).toThrow('getPerfGroups takes 2 arguments');
    const page = { sort: 'group', filter: 'all', offset: 0, limit: 100 };
    for (const query of [
      { ...page, sort: 'duration' },
      { ...page, filter: 'none' },
      { ...page, offset: -1 },
      { ...page, offset: 0.5 },
      { ...page, limit: 0 },
      // a page is at most GROUP_PAGE_MAX (1000) groups: never all 12.5k in one answer
      { ...page, limit: 1001 },
      { sort: 'group', filter: 'all', offset: 0 },
      null,
      { ...page, reverse: 'yes' },
      // a run figure: a known way to combine, three lists of one length, rows, finite numbers
      { ...page, rowFigure: { combine: 'mean', rowIds: [0], values: [1], weights: [1] } },
      { ...page, rowFigure: { combine: 'sum', rowIds: [0, 1], values: [1], weights: [1] } },
      { ...page, rowFigure: { combine: 'sum', rowIds: [-1], values: [1], weights: [1] } },
      { ...page, rowFigure: { combine: 'max', rowIds: [0], values: [null], weights: [1] } },
      { ...page, rowFigure: { combine: 'max', rowIds: [0], values: ['1'], weights: [1] } },
      { ...page, rowFigure: { combine: 'max', rowIds: [0], values: [1] } },
      { ...page, rowFigure: [0, 1] },
    ])
      expect(bad('getPerfGroups', ['f1', query])).toThrow('getPerfGroups: argument 2 is not valid');
    for (const distribution of [
      { kind: 'span', name: 'x' },
      { kind: 'series' },
      { kind: 'series', name: '' },
      ['series', 'x'],
      null,
    ])
      expect(bad('comparePerfDistribution', ['a', 'b', distribution])).toThrow(
        'comparePerfDistribution: argument 3 is not valid',
      );
  });
});

describe('perf calls over HTTP on the real service', () => {
  const service = new TraceService(ingestInThread(FORMATS));
  let handle: ServeHandle;
  let port: number;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const name of ['rollout_small.pt', 'rollout_7.pt', 'rollout_8.pt']) {
      const path = resolve(SLIME, name);
      const result = await service.open({ openId: name, sources: [{ kind: 'path', path }] });
      if (!result.ok) throw new Error(result.error.message);
      ids[name] = result.file.fileId;
    }
    const rendererDir = mkdtempSync(join(tmpdir(), 'te-perf-calls-'));
    handle = await startServeMode({ api: service, rendererDir, token: 'tok' });
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());

  const call = serveCaller(() => port);

  it('answers the digest, and a bin’s rows that are exactly the rows it counted', async () => {
    const id = ids['rollout_small.pt'];
    const perf = (await call('getPerf', [id])).body.result as PerfDigest;
    const e2e = perf.series.find((s) => s.key === 'e2e latency')!;
    // the fixture's requests: sglang_generate spans whose end attrs carry an e2e latency
    const requests = readJson<{ rows: Row[] }>(
      `${resolve(SLIME, 'rollout_small.pt')}.expected.json`,
    ).rows.flatMap((r) =>
      r.items.flatMap((i) =>
        i.type === 'span' &&
        i.name === 'sglang_generate' &&
        typeof i.attrs.end_attrs.e2e_latency === 'number'
          ? [{ rowId: r.row_id, value: i.attrs.end_attrs.e2e_latency as number }]
          : [],
      ),
    );
    expect(e2e.valueCount).toBe(requests.length);
    expect(perf.running.tSec).toBeInstanceOf(Float64Array);
    expect(perf.running.running).toBeInstanceOf(Int32Array);
    const full = await service.getPerf(id);
    expect(perf.rollout).toEqual(full.rollout);
    let rowsSeen = 0;
    for (const [b, bin] of e2e.bins.entries()) {
      const answer = await call('getPerfBinRows', [id, 'e2e latency', b]);
      expect(answer.status).toBe(200);
      const rows = answer.body.result as number[];
      expect(rows).toHaveLength(bin.samples);
      const last = b === e2e.bins.length - 1;
      const inBin = requests.filter((r) => r.value >= bin.x0 && (r.value < bin.x1 || last));
      expect(rows.sort((x, y) => x - y)).toEqual(
        [...new Set(inBin.map((r) => r.rowId))].sort((x, y) => x - y),
      );
      rowsSeen += rows.length;
    }
    expect(rowsSeen).toBe(e2e.bins.reduce((n, bin) => n + bin.samples, 0));
    expect(rowsSeen).toBeGreaterThan(0);
  });

  it('answers 404 for a series the file lacks and 400 for a bad bin, before any work', async () => {
    const id = ids['rollout_small.pt'];
    expect((await call('getPerfBinRows', [id, 'no such series', 0])).status).toBe(404);
    expect((await call('getPerfBinRows', [id, 'e2e latency', -1])).status).toBe(400);
    expect((await call('getPerfBinRows', ['no-such-file', 'e2e latency', 0])).status).toBe(404);
    await expect(service.getPerfBinRows(id, 'nope', 0)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers the groups a page at a time: 4 groups of 4 samples', async () => {
    const id = ids['rollout_small.pt'];
    const page = (offset: number, limit: number) =>
      call('getPerfGroups', [id, { sort: 'group', filter: 'all', offset, limit }]);
    const all = (await page(0, 100)).body.result as GroupPage;
    // tests/fixtures/slime/README.md: rollout_small.pt is 4 groups x 4
    expect(all.groups.map((g) => g.rowIds.length)).toEqual([4, 4, 4, 4]);
    expect(all).toMatchObject({ offset: 0, shown: 4, total: 4 });
    const second = (await page(1, 2)).body.result as GroupPage;
    expect(second.groups.map((g) => g.groupIndex)).toEqual(
      all.groups.slice(1, 3).map((g) => g.groupIndex),
    );
    expect(second).toMatchObject({ offset: 1, shown: 4, total: 4 });
    expect(((await page(4, 100)).body.result as GroupPage).groups).toEqual([]);
  });

  it('sorts and filters the groups in the worker: rollout 8’s zero-variance and slowest', async () => {
    const id = ids['rollout_8.pt'];
    const first = async (sort: string, filter: string) =>
      (await call('getPerfGroups', [id, { sort, filter, offset: 0, limit: 1 }])).body
        .result as GroupPage;
    // rollout_7_vs_8.compare.expected.json: one zero-variance group in rollout 8 (group 5)
    const zero = await first('group', 'zero-variance');
    expect(zero.groups.map((g) => g.groupIndex)).toEqual([5]);
    expect(zero).toMatchObject({ shown: 1, total: 6, zeroVariance: 1 });
    // group 2 ends last (its band reaches the own window's end): the longest wall time
    expect((await first('wall', 'all')).groups[0].groupIndex).toBe(2);
    // groups 0 and 1 were resumed from rollout 7 (tests/fixtures/slime/README.md)
    const resumed = (
      await call('getPerfGroups', [id, { sort: 'group', filter: 'resumed', offset: 0, limit: 10 }])
    ).body.result as GroupPage;
    expect(resumed.groups.map((g) => g.groupIndex)).toEqual([0, 1]);
  });

  it('bins two files’ values of one distribution on shared edges for compare', async () => {
    const a = ids['rollout_7.pt'];
    const b = ids['rollout_8.pt'];
    const answer = await call('comparePerfDistribution', [
      a,
      b,
      { kind: 'series', name: 'e2e latency' },
    ]);
    const bins = answer.body.result as SharedBins;
    const [perfA, perfB] = [await service.getPerf(a), await service.getPerf(b)];
    const countOf = (p: PerfDigest) => p.series.find((s) => s.key === 'e2e latency')!.valueCount;
    expect([bins.countA, bins.countB]).toEqual([countOf(perfA), countOf(perfB)]);
    expect(bins.a.reduce((n, c) => n + c, 0)).toBe(bins.countA);
    expect(bins.b.reduce((n, c) => n + c, 0)).toBe(bins.countB);
    expect(bins.edges).toHaveLength(25);
    const statsA = perfA.series.find((s) => s.key === 'e2e latency')!.stats!;
    expect(bins.meanA).toBeCloseTo(statsA.mean, 12);
    expect(bins.edges[0]).toBe(
      Math.min(statsA.min, perfB.series.find((s) => s.key === 'e2e latency')!.stats!.min),
    );
    // a span name only one file has: the other side is empty
    const none = (await call('comparePerfDistribution', [a, b, { kind: 'duration', name: 'nope' }]))
      .body.result as SharedBins;
    expect(none).toMatchObject({ edges: [], countA: 0, countB: 0 });
  });
});
