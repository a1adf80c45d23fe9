import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { inflateSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { validateCall } from '../../../src-main/api/validate-call';
import { BadCallError } from '../../../src-main/core/api/call-errors';
import type { ExportedFile } from '../../../src-main/core/api/trace-api';
import { decodeAnswer } from '../../../src-main/core/api/typed-json';
import type { ReportSnapshot } from '../../../src-main/core/api/report-snapshot';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { serveCaller } from '../../support/serve-call';
import { SLIME } from '../../support/fixtures';
import { ingestInThread } from '../../support/in-thread-ingest';
import { ingest } from '../../../src-main/ingest/open-sources';
import { fileCalls } from '../../../src-main/ingest/file-calls';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { buildReportSnapshot } from '../../../src-main/core/report/build-report-snapshot';

// The Share menu's call (File > Share report… and serve mode's Share ▾): exportReport, checked
// like every call, answered by the real service over serve mode's HTTP.
describe('exportReport arguments', () => {
  it('takes one file, two with compare, or a run, and whether content goes in', () => {
    const ok = { fileIds: ['a', 'b'], compare: true, withContent: false };
    expect(validateCall('exportReport', [ok]).args).toEqual([ok]);
    const run = { fileIds: [], compare: false, withContent: true, runId: 'run-1' };
    expect(validateCall('exportReport', [run]).args).toEqual([run]);
    for (const bad of [
      { fileIds: ['a'], compare: true, withContent: false },
      { fileIds: ['a', 'b'], compare: false, withContent: false },
      { fileIds: ['a', 'a'], compare: true, withContent: false },
      { fileIds: ['a'], compare: false, withContent: 'yes' },
      { fileIds: [], compare: false, withContent: false },
      // a run's report names the run only: its files are main's to find
      { fileIds: ['a'], compare: false, withContent: false, runId: 'r' },
      { fileIds: [], compare: true, withContent: false, runId: 'r' },
      { fileIds: [], compare: false, withContent: false, runId: 7 },
    ]) {
      expect(() => validateCall('exportReport', [bad])).toThrow(BadCallError);
    }
  });
});

describe('exportReport over HTTP on the real service', () => {
  const service = new TraceService(ingestInThread(FORMATS));
  let handle: ServeHandle;
  let port: number;
  const ids: string[] = [];

  beforeAll(async () => {
    for (const name of ['rollout_7.pt', 'rollout_8.pt']) {
      const path = resolve(SLIME, name);
      const result = await service.open({ openId: name, sources: [{ kind: 'path', path }] });
      if (!result.ok) throw new Error(result.error.message);
      ids.push(result.file.fileId);
    }
    const rendererDir = mkdtempSync(join(tmpdir(), 'te-share-'));
    handle = await startServeMode({ api: service, rendererDir, token: 'tok' });
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());
  const call = serveCaller(() => port);

  it('answers the compare as one HTML file: its snapshot with the service’s own compare', async () => {
    const answer = await call('exportReport', [
      { fileIds: ids, compare: true, withContent: false },
    ]);
    expect(answer.status).toBe(200);
    const file = answer.body.result as ExportedFile;
    expect(file.fileName).toBe('rollout_7.pt-vs-rollout_8.pt.report.html');
    expect(file.mime).toBe('text/html');
    const html = Buffer.from(file.bytesBase64, 'base64').toString('utf8');
    const data = /id="report-data" data-type="([^"]+)">([^<]*)</.exec(html)!;
    const snapshot = decodeAnswer(
      data[1],
      inflateSync(Buffer.from(data[2], 'base64')).slice().buffer,
    ) as ReportSnapshot;
    expect(snapshot.withContent).toBe(false);
    expect(snapshot.files.map((f) => [f.summary.fileId, f.summary.path])).toEqual([
      [ids[0], null],
      [ids[1], null],
    ]);
    const result = snapshot.compare!.results[`${ids[0]}\n${ids[1]}`];
    expect(result.answer).toEqual((await service.compare(ids[0], ids[1])).answer);
    expect(html).toContain('id="report-details-1"');
  });
});

// Share on a run tab: the run's report, with the run tab the CLI's report of the folder has.
describe('exportReport of a run tab', () => {
  const service = new TraceService(ingestInThread(FORMATS));
  const RUN = resolve(__dirname, '../../fixtures/run');

  it('holds the run as `report RUN_FOLDER` makes it: its files, paths and joins', async () => {
    const opened = await service.openRun({ openId: 'run-1', paths: [RUN] });
    expect(opened.complete).toBe(true);
    const file = await service.exportReport({
      fileIds: [],
      compare: false,
      withContent: false,
      runId: 'run-1',
    });
    expect(file.fileName).toBe('run.report.html');
    const html = Buffer.from(file.bytesBase64, 'base64').toString('utf8');
    const snapshot = snapshotOf(html);
    // the CLI's report of the same folder, made from the same functions in this thread
    const cli = cliRunSnapshot(RUN);
    const run = snapshot.run!;
    expect(run.files.map((f) => [f.file.path, f.role])).toEqual(
      cli.files.map((f) => [f.file.path, f.role]),
    );
    expect(run.files.map((f) => f.file.path)[0]).toMatch(/^run\/comm_timeline\//);
    expect(run.joins).toEqual(cli.joins);
    expect([run.name, run.paths, run.skipped, run.complete]).toEqual([
      cli.name,
      cli.paths,
      cli.skipped,
      cli.complete,
    ]);
    // the run tab's files are the report's files, by id
    expect(run.files.map((f) => f.file.fileId)).toEqual(
      snapshot.files.map((f) => f.summary.fileId),
    );
    expect(snapshot.withContent).toBe(false);
    await expect(
      service.exportReport({ fileIds: [], compare: false, withContent: false, runId: 'nope' }),
    ).rejects.toThrow(/no run nope/);
    for (const f of run.files) await service.close(f.file.fileId);
  });
});

function snapshotOf(html: string): ReportSnapshot {
  const data = /id="report-data" data-type="([^"]+)">([^<]*)</.exec(html)!;
  return decodeAnswer(
    data[1],
    inflateSync(Buffer.from(data[2], 'base64')).slice().buffer,
  ) as ReportSnapshot;
}

/** The run as the CLI's `report RUN_FOLDER` puts it in its snapshot (cli/run-report.ts). */
function cliRunSnapshot(folder: string) {
  const found = findRunFiles([folder]);
  const files = found.groups.map((group) => {
    const trace = ingest({ sources: group.map((path) => ({ kind: 'path' as const, path })) });
    const calls = fileCalls(
      trace,
      group.map((path) => ({ kind: 'path' as const, path })),
    );
    return { summary: { ...trace.summary, fileId: group[0], path: group[0] }, calls };
  });
  return buildReportSnapshot(files, {
    withContent: false,
    compare: false,
    madeAt: new Date(0),
    run: {
      name: basename(folder),
      skipped: found.skipped,
      paths: found.groups.map((group) => relative(dirname(folder), group[0])),
    },
  }).snapshot.run!;
}
