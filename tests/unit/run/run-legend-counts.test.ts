import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import type { RowView, RunResult } from '../../../src-main/core/api/trace-api';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { gpuProfileLanes } from '../../../src-renderer/run/run-gpu';
import { keyOf } from '../../../src-renderer/run/run-model';
import { runBarCounts, runLaneGroups } from '../../../src-renderer/run/run-lanes';
import { laneSpanNames } from '../../../src-renderer/timeline/lane-group';
import { ingestInThread } from '../../support/in-thread-ingest';

// The run tab's legend counts each kind's spans over the whole run from the start (the files'
// workers count them as they build the rows), and those counts are what the rows draw once
// every row is fetched. The run: tests/fixtures/run/README.md; its GPU trace:
// tests/fixtures/run_gpu/README.md.
const FIXTURES = resolve(__dirname, '../../fixtures');
const tmp = mkdtempSync(join(tmpdir(), 'run-legend-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** tests/fixtures/run with run_gpu's rank trace in a `profile/` folder */
function runWithGpu(): string {
  const dir = join(tmp, 'run');
  cpSync(join(FIXTURES, 'run'), dir, { recursive: true });
  mkdirSync(join(dir, 'profile'));
  copyFileSync(
    join(FIXTURES, 'run_gpu/rank-0.trace.json.gz'),
    join(dir, 'profile/rank-0.trace.json.gz'),
  );
  return dir;
}

/** Every row of every file the run tab draws, fetched (as scrolling through all of it would). */
async function everyRow(service: TraceService, run: RunResult) {
  const rows = new Map<number, RowView[]>();
  for (const [index, { file }] of run.files.entries()) {
    const order = await service.queryRows(file.fileId, { sort: 'start' });
    rows.set(index, await service.getRows(file.fileId, [...order.rowIds]));
  }
  return rows;
}

describe("the run tab's legend", () => {
  it('counts every drawn span of each kind before any row is fetched', async () => {
    const service = new TraceService(ingestInThread(FORMATS));
    const run = await service.openRun({ openId: 'legend', paths: [runWithGpu()] });
    expect(run.complete).toBe(true);
    const rows = await everyRow(service, run);
    const roleOf = (file: number) => run.files[file].role;
    const filesOf = (role: string) => [...rows.keys()].filter((f) => roleOf(f) === role);

    const samples = filesOf('samples').flatMap((file) =>
      rows.get(file)!.map((row) => ({
        file,
        rowId: row.rowId,
        startSec: row.startSec,
        endSec: row.endSec,
        rolloutId: 0,
        stale: false,
        links: 0,
      })),
    );
    const trainer = filesOf('trainer').flatMap((file) =>
      rows.get(file)!.map((row) => ({ file, fileName: `f${file}`, row })),
    );
    const views = new Map(
      filesOf('samples').flatMap((file) =>
        rows.get(file)!.map((row) => [keyOf(file, row.rowId), row] as const),
      ),
    );
    const [gpuFile] = filesOf('gpu');
    const gpu = (fetched: boolean) => [
      gpuProfileLanes({
        file: gpuFile,
        fileName: 'profile/rank-0.trace.json.gz',
        summary: run.files[gpuFile].file,
        rows: fetched ? rows.get(gpuFile)! : [],
        fileShiftSec: 0,
        offsetSec: 0,
        toggled: new Set(),
      }),
    ];
    // one sample opened: its SGLang request's row under it, fetched as it is opened
    const link = run.joins.links[0];
    const sampleKey = keyOf(link.client.file, link.client.rowId);
    const [server] = rows.get(link.server.file)!.filter((row) => row.rowId === link.server.rowId);
    const opening = {
      serverViews: new Map([[keyOf(link.server.file, link.server.rowId), server]]),
      linksBySample: new Map([[sampleKey, [link]]]),
      opened: new Set([sampleKey]),
    };

    // every row fetched, counted from what the rows hold (no file's counts given)
    const loaded = laneSpanNames(
      runLaneGroups({ trainer, samples, views, gpu: gpu(true), ...opening }).map((g) => ({
        ...g,
        barCounts: undefined,
      })),
    );
    // no row fetched yet: the files' counts alone
    const before = laneSpanNames(
      runLaneGroups({
        trainer: [],
        samples: samples.map((s) => ({ ...s })),
        views: new Map(),
        gpu: gpu(false),
        barCounts: runBarCounts(run),
        ...opening,
      }),
    );
    expect(before).toEqual(loaded);
    // and every row fetched with the counts: each span counted once
    expect(
      laneSpanNames(
        runLaneGroups({
          trainer,
          samples,
          views,
          gpu: gpu(true),
          barCounts: runBarCounts(run),
          ...opening,
        }),
      ),
    ).toEqual(loaded);

    // what the fixture's own checker counted (expected_counts.json): 33 + 32 sglang_generate
    // spans started; the PD summary is an instant event, drawn as a marker, never counted
    const expected = JSON.parse(
      readFileSync(join(FIXTURES, 'run/expected_counts.json'), 'utf8'),
    ) as { rollouts: Record<string, { spans_started: Record<string, number> }> };
    const started = (name: string) =>
      Object.values(expected.rollouts).reduce((n, r) => n + (r.spans_started[name] ?? 0), 0);
    const countOf = (name: string) => before.find((n) => n.name === name && !n.category)?.count;
    expect(countOf('sglang_generate')).toBe(started('sglang_generate'));
    expect(countOf('reward_model')).toBe(started('reward_model'));
    expect(countOf('sglang_pd_summary')).toBeUndefined();
    // the GPU trace's kernels by kind, as tests/e2e/run-gpu.spec.ts reads them on the page
    expect(before.filter((n) => n.category).map((n) => [n.name, n.count])).toEqual(
      loaded.filter((n) => n.category).map((n) => [n.name, n.count]),
    );
    expect(before.filter((n) => n.category).length).toBeGreaterThan(0);
  });
});
