import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import type { RunResult } from '../../../src-main/core/api/trace-api';
import { validateCall } from '../../../src-main/api/validate-call';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { groupPaths } from '../../../src-main/ingest/group-files';
import { ingestInThread } from '../../support/in-thread-ingest';

// openRun through the service: each file opened by the ingest session (messages cloned as
// between threads), the digests asked over the same calls, joined in main.
// Counts: tests/fixtures/run/README.md.
const RUN = resolve(__dirname, '../../fixtures/run');

describe('TraceApi.openRun', () => {
  it('opens the run folder: every trace open like a file, roles, joins and skipped files', async () => {
    const service = new TraceService(ingestInThread(FORMATS));
    const run = await service.openRun({ openId: 'r1', paths: [RUN] });
    expect(run.errors).toEqual([]);
    expect(run.complete).toBe(true);
    expect(run.pending).toEqual([]);
    // files come in arrival order (the positions the joins use): by path here
    expect(
      run.files.map((f) => [f.file.path!.slice(RUN.length + 1), f.role]).sort(byFirst),
    ).toEqual([
      ['comm_timeline/slime-trainer-0.jsonl', 'trainer'],
      ['comm_timeline/slime-trainer-1.jsonl', 'trainer'],
      ['comm_timeline_v1/slime-trainer-0.jsonl', 'trainer'],
      ['comm_timeline_v1/slime-trainer-1.jsonl', 'trainer'],
      ['rollout_0.pt', 'samples'],
      ['rollout_1.pt', 'samples'],
      ['sglang_otel_trace.json', 'server'],
    ]);
    expect(run.joins.counts).toEqual({
      samples: 64,
      samplesWithServerRequests: 64,
      samplesWithoutServerRequest: 0,
      serverRequests: 65,
      serverRequestsWithoutSample: 1,
      staleSamples: 0,
    });
    expect(run.skipped.map((s) => s.path.slice(RUN.length + 1))).toEqual([
      'README.md',
      'expected_counts.json',
      'run_plan.json',
    ]);
    // the files are open: a joined request's server row answers getRows
    const link = run.joins.links[0];
    const [server] = await service.getRows(run.files[link.server.file].file.fileId, [
      link.server.rowId,
    ]);
    expect(server.items[link.server.itemIndex].name).toBe(`decode Req ${link.rid.slice(0, 8)}`);
    const [client] = await service.getRows(run.files[link.client.file].file.fileId, [
      link.client.rowId,
    ]);
    expect(client.items[link.client.itemIndex].name).toBe('sglang_generate');
  });

  it('is validated like the other calls', () => {
    expect(() => validateCall('openRun', [{ openId: 'x', paths: [] }])).toThrow('not valid');
    expect(() => validateCall('openRun', [{ openId: 'x', paths: [7] }])).toThrow('not valid');
    expect(validateCall('openRun', [{ openId: 'x', paths: ['/a'] }]).method).toBe('openRun');
    expect(() => validateCall('openRun', [{ openId: 'x', paths: ['/a'], answer: 'soon' }])).toThrow(
      'not valid',
    );
    expect(
      validateCall('openRun', [{ openId: 'x', paths: ['/a'], answer: 'first-file' }]).method,
    ).toBe('openRun');
  });

  it('a named run folder is a run, not file tabs; a folder of dumps alone stays trends', () => {
    const paths = groupPaths([RUN], { trendFolders: true, runs: true });
    expect(paths.runs).toEqual([[RUN]]);
    expect(paths.groups).toEqual([]);
    expect(paths.emptyFolders).toEqual([]);
    const dumps = groupPaths([resolve(__dirname, '../../fixtures/slime')], {
      trendFolders: true,
      runs: true,
    });
    expect(dumps.runs).toEqual([]);
  });
});

describe('TraceApi.runNow', () => {
  // a page whose event stream broke asks main where the run is: its last 'run-updated' state
  it("answers the run's last state, after it is complete too, until its files are closed", async () => {
    const service = new TraceService(ingestInThread(FORMATS));
    expect(await service.runNow('r4')).toBeNull();
    const said: RunResult[] = [];
    service.onHostEvent((event) => {
      if (event.type === 'run-updated' && event.openId === 'r4') said.push(event.result);
    });
    const whole = await service.openRun({ openId: 'r4', paths: [RUN] });
    expect(whole.complete).toBe(true);
    expect(await service.runNow('r4')).toEqual(said[said.length - 1]);
    expect(await service.runNow('r4')).toEqual(whole);
    await service.close(whole.files[0].file.fileId);
    expect(await service.runNow('r4')).toBeNull();
  });

  it('and trendsNow are validated like the other calls', () => {
    expect(validateCall('runNow', ['r1']).args).toEqual(['r1']);
    expect(validateCall('trendsNow', ['t1']).args).toEqual(['t1']);
    expect(() => validateCall('runNow', [])).toThrow('runNow takes 1 arguments');
    expect(() => validateCall('trendsNow', [7])).toThrow('not valid');
    expect(() => validateCall('runNow', [''])).toThrow('not valid');
  });
});

describe('TraceApi.trendsNow', () => {
  it("answers each dump's latest progress while openTrends reads, and null once it answered", async () => {
    let readOn!: () => void;
    const service = new TraceService(ingestInThread(FORMATS), {
      cacheDir: null,
      run: async (_paths, options) => {
        options.onFile?.({ path: '/a.pt', state: 'reading', bytesRead: 0, bytesTotal: 9 });
        options.onFile?.({ path: '/b.pt', state: 'cached', bytesRead: 9, bytesTotal: 9 });
        options.onFile?.({ path: '/a.pt', state: 'reading', bytesRead: 5, bytesTotal: 9 });
        await new Promise<void>((resolve) => (readOn = resolve));
        return { points: [], incomplete: [], skipped: [], cached: 1, units: {} };
      },
    });
    const answer = service.openTrends({ openId: 't1', paths: ['/run'] });
    expect(await service.trendsNow('t1')).toEqual([
      { path: '/a.pt', state: 'reading', bytesRead: 5, bytesTotal: 9 },
      { path: '/b.pt', state: 'cached', bytesRead: 9, bytesTotal: 9 },
    ]);
    expect(await service.trendsNow('t2')).toBeNull();
    readOn();
    await answer;
    expect(await service.trendsNow('t1')).toBeNull();
  });
});

describe('files named or dropped together', () => {
  const dump0 = resolve(RUN, 'rollout_0.pt');
  const dump1 = resolve(RUN, 'rollout_1.pt');
  const sglang = resolve(RUN, 'sglang_otel_trace.json');

  it("dumps with SGLang's file are one run; two dumps stay two files", () => {
    expect(groupPaths([dump0, sglang], { runs: true })).toMatchObject({
      runs: [[dump0, sglang]],
      groups: [],
    });
    expect(groupPaths([dump0, dump1], { runs: true })).toMatchObject({
      runs: [],
      groups: [[dump0], [dump1]],
    });
  });

  it('openRun says whether they are a run, and opens them either way', async () => {
    const service = new TraceService(ingestInThread(FORMATS));
    const run = await service.openRun({ openId: 'r2', paths: [dump0, sglang] });
    expect(run.isRun).toBe(true);
    expect(run.joins.counts.samplesWithServerRequests).toBe(32);
    const two = await service.openRun({ openId: 'r3', paths: [dump0, dump1] });
    expect(two.isRun).toBe(false);
    expect(two.files.map((f) => f.file.name).sort()).toEqual(['rollout_0.pt', 'rollout_1.pt']);
  });
});

const byFirst = (a: string[], b: string[]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
