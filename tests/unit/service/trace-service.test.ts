import { copyFileSync, mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { NotFoundError } from '../../../src-main/core/api/call-errors';
import type { OpenProgress } from '../../../src-main/core/api/trace-api';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { connectIngest, IngestFailure } from '../../../src-main/ingest/ingest-connection';
import type { OpenProgressReport } from '../../../src-main/core/open/open-trace-file';
import { ingestInThread } from '../../support/in-thread-ingest';
import { OTLP, SLIME, readJson } from '../../support/fixtures';
import { FakeWorker } from './fake-worker';

// The TraceService (api/trace-service.ts) with the real ingest session over a MessageChannel:
// open, progress, cancel, close, errors and compare, as both transports call them.
const serviceWithProgress = () => {
  const service = new TraceService(ingestInThread(FORMATS));
  const progress: OpenProgress[] = [];
  service.onProgress((p) => progress.push(p));
  return { service, progress };
};

describe('TraceService over the ingest session', () => {
  it('opens a dump: its summary, progress from 0 to the file size, then rows; close frees it', async () => {
    const { service, progress } = serviceWithProgress();
    const path = resolve(SLIME, 'rollout_small.pt');
    const result = await service.open({ openId: 'o1', sources: [{ kind: 'path', path }] });
    expect(result.ok).toBe(true);
    const file = (result as Extract<typeof result, { ok: true }>).file;
    // 4 groups x 4 = 16 samples, one row each; 171707 bytes (tests/fixtures/slime/README.md)
    expect(file).toMatchObject({ format: 'slime', samples: 16, rows: 16, bytes: 171707, path });
    expect(progress[0]).toEqual({
      openId: 'o1',
      name: 'rollout_small.pt',
      bytesRead: 0,
      bytesTotal: 171707,
      samplesRead: 0,
      phase: 'reading',
    });
    expect(progress.at(-1)).toEqual({
      openId: 'o1',
      name: 'rollout_small.pt',
      bytesRead: 171707,
      bytesTotal: 171707,
      samplesRead: 16,
      phase: 'done',
    });
    expect(progress.every((p) => p.openId === 'o1' && p.bytesRead <= p.bytesTotal)).toBe(true);

    expect((await service.listFiles()).map((f) => f.fileId)).toEqual([file.fileId]);
    const cache = readJson<{ rows: { row_id: number; trace_id: string }[] }>(
      `${path}.expected.json`,
    );
    const rows = await service.getRows(file.fileId, [0, 15]);
    expect(rows.map((r) => r.rowId)).toEqual([0, 15]);
    expect(rows.map((r) => r.traceId)).toEqual([cache.rows[0].trace_id, cache.rows[15].trace_id]);

    await service.close(file.fileId);
    expect(await service.listFiles()).toEqual([]);
    await expect(service.getRows(file.fileId, [0])).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.getPerf('no-such-id')).rejects.toThrow('no open file with id no-such-id');
  });

  it('a broken dump: a coded error naming the file, and progress ends failed', async () => {
    const { service, progress } = serviceWithProgress();
    const result = await service.open({
      openId: 'o2',
      sources: [{ kind: 'path', path: resolve(SLIME, 'truncated.pt') }],
    });
    // the first half of rollout_small.pt: no ZIP central directory (slime/README.md)
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'zip/eocd-not-found',
        offset: 85853,
        message: expect.stringMatching(/central directory/),
        fileName: 'truncated.pt',
      },
    });
    expect(progress.at(-1)).toMatchObject({ openId: 'o2', phase: 'failed', bytesRead: 0 });
    expect(await service.listFiles()).toEqual([]);
  });

  it('an empty folder is an error of its own', async () => {
    const { service } = serviceWithProgress();
    const folder = mkdtempSync(join(tmpdir(), 'te-empty-'));
    const result = await service.open({ openId: 'o3', sources: [{ kind: 'path', path: folder }] });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'io/empty-folder',
        message: 'the folder holds no trace file',
        fileName: folder.split('/').pop(),
      },
    });
  });

  it('compares two open dumps with numpy’s figures, and refuses a dump against a trace', async () => {
    const { service } = serviceWithProgress();
    const openPath = async (path: string) => {
      const result = await service.open({ openId: path, sources: [{ kind: 'path', path }] });
      if (!result.ok) throw new Error(result.error.message);
      return result.file.fileId;
    };
    const a = await openPath(resolve(SLIME, 'rollout_7.pt'));
    const b = await openPath(resolve(SLIME, 'rollout_8.pt'));
    const expected = readJson<Record<'a' | 'b', { reward: { mean: number }; samples: number }>>(
      resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'),
    );
    const result = await service.compare(a, b);
    expect([result.a, result.b]).toEqual([a, b]);
    const reward = result.stats.find((s) => s.key === 'reward/mean')!;
    expect(reward.a).toBeCloseTo(expected.a.reward.mean, 12);
    expect(reward.b).toBeCloseTo(expected.b.reward.mean, 12);
    // rollouts 7 and 8 hold other prompts at the same indexes: matched by group and prompt,
    // every sample of A either matched or listed (issue 17)
    expect(result.matchedBy).toBe('group and prompt');
    expect(result.matched.aRowIds.length + result.onlyA.length).toBe(expected.a.samples);
    expect(result.matched.bRowIds.length + result.onlyB.length).toBe(expected.b.samples);
    const otlp = await openPath(resolve(OTLP, 'sglang_otel_trace.json'));
    await expect(service.compare(a, otlp)).rejects.toThrow(
      'cannot compare a slime dump with a OpenTelemetry trace',
    );
  });

  it('a dump moved away after opening: its rows stay, its samples fail with a coded error naming it', async () => {
    const { service } = serviceWithProgress();
    const dir = mkdtempSync(join(tmpdir(), 'te-gone-'));
    const path = join(dir, 'rollout_gone.pt');
    copyFileSync(resolve(SLIME, 'rollout_small.pt'), path);
    const result = await service.open({ openId: 'g1', sources: [{ kind: 'path', path }] });
    if (!result.ok) throw new Error(result.error.message);
    const { fileId } = result.file;
    const before = await service.getSample(fileId, 3);
    expect(Object.keys(before.fields).length).toBeGreaterThan(0);
    renameSync(path, join(dir, 'elsewhere.pt'));
    // the rows are in memory: they still show
    expect((await service.getRows(fileId, [3]))[0].rowId).toBe(3);
    // the first batch's samples too re-read their token ranges from the file
    for (const rowId of [3, 15])
      await expect(service.getSample(fileId, rowId)).rejects.toThrow(
        'rollout_gone.pt was moved or deleted after it was opened: open it again to see its samples (io/file-gone)',
      );
    await service.close(fileId);
  });

  it('opens bytes sent by the renderer (a dropped file without a path)', async () => {
    const { service } = serviceWithProgress();
    const bytes = Buffer.from('');
    const result = await service.open({
      openId: 'o4',
      sources: [{ kind: 'bytes', name: 'otlp_empty.jsonl', bytesBase64: bytes.toString('base64') }],
    });
    // zero bytes: an empty trace, not an error (tests/fixtures/otlp/README.md)
    expect(result).toMatchObject({ ok: true, file: { rows: 0, spans: 0, path: null } });
  });

  it('an upload source where no uploads are taken (the desktop app) answers open/unknown-upload', async () => {
    const { service, progress } = serviceWithProgress();
    const result = await service.open({
      openId: 'o5',
      sources: [{ kind: 'upload', uploadId: '00000000-0000-0000-0000-000000000000' }],
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'open/unknown-upload' } });
    // refused before any reading: no progress of an open that never began
    expect(progress).toEqual([]);
  });
});

/** The service with a worker the test drives (FakeWorker), to cancel and to crash it. */
function serviceWithFakeWorker() {
  const workers: FakeWorker[] = [];
  const service = new TraceService((_request, onProgress) => {
    const worker = new FakeWorker();
    workers.push(worker);
    return connectIngest(worker, onProgress);
  });
  const progress: OpenProgress[] = [];
  service.onProgress((p) => progress.push(p));
  const open = (openId: string) =>
    service.open({ openId, sources: [{ kind: 'path', path: resolve(SLIME, 'rollout_small.pt') }] });
  return { service, workers, progress, open };
}

const SUMMARY = { bytes: 10, samples: 2, rows: 2 } as never;

describe('TraceService and a file’s worker: cancel, crash, exit', () => {
  it('cancel while reading: a cancelled result, progress cancelled, the worker ended', async () => {
    const { service, workers, progress, open } = serviceWithFakeWorker();
    const opening = open('c1');
    workers[0].say({
      type: 'progress',
      progress: { bytesRead: 5, samplesRead: 1, phase: 'reading' },
    });
    await service.cancelOpen('c1');
    expect(await opening).toEqual({
      ok: false,
      error: {
        code: 'open/cancelled',
        message: 'opening was cancelled',
        fileName: 'rollout_small.pt',
      },
    });
    expect(workers[0].terminated).toBe(1);
    expect(progress.map((p) => [p.phase, p.bytesRead])).toEqual([
      ['reading', 0],
      ['reading', 5],
      ['cancelled', 0],
    ]);
    // a late summary from the ended worker changes nothing
    workers[0].say({ type: 'done', summary: SUMMARY });
    expect(await service.listFiles()).toEqual([]);
  });

  it('progress the worker posted before it was ended, delivered after the cancel, is dropped', async () => {
    // Node delivers the messages a thread posted before terminate() after it, as the thread
    // exits: a 'reading' after 'cancelled' showed the opening tab again, and openingNow listed
    // it, for good (a clean CI run failed on it)
    const worker = new FakeWorker();
    const reported: number[] = [];
    const job = connectIngest(worker, (progress) => reported.push(progress.bytesRead));
    worker.say({ type: 'progress', progress: { bytesRead: 5, samplesRead: 1, phase: 'reading' } });
    job.cancel();
    await expect(job.result).rejects.toThrow('opening was cancelled');
    worker.say({ type: 'progress', progress: { bytesRead: 7, samplesRead: 2, phase: 'reading' } });
    worker.exit(1);
    expect(reported).toEqual([5]);
  });

  it('an open says nothing after its end, whatever its reader reports late', async () => {
    // the service's own rule, whatever runner it is given: here one that reports after failing
    let report: (progress: OpenProgressReport) => void = () => {};
    const service = new TraceService((_request, onProgress) => {
      report = onProgress;
      const failure = new IngestFailure({ code: 'pickle/truncated', message: 'cut short' });
      return { result: Promise.reject(failure), cancel: () => {} };
    });
    const progress: OpenProgress[] = [];
    service.onProgress((p) => progress.push(p));
    const result = await service.open({
      openId: 'c7',
      sources: [{ kind: 'path', path: resolve(SLIME, 'rollout_small.pt') }],
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'pickle/truncated' } });
    report({ bytesRead: 9, samplesRead: 3, phase: 'reading' });
    expect(progress.map((p) => p.phase)).toEqual(['reading', 'failed']);
    expect(await service.openingNow()).toEqual([]);
  });

  it('a worker that crashes while opening: open/worker-crashed with its message', async () => {
    const { workers, open } = serviceWithFakeWorker();
    const opening = open('c2');
    workers[0].crash('out of memory');
    expect(await opening).toMatchObject({
      ok: false,
      error: { code: 'open/worker-crashed', message: 'out of memory' },
    });
    expect(workers[0].terminated).toBe(1);
  });

  it('a worker that exits while opening: open/worker-exited with its exit code', async () => {
    const { workers, open } = serviceWithFakeWorker();
    const opening = open('c3');
    workers[0].exit(134);
    expect(await opening).toMatchObject({
      ok: false,
      error: { code: 'open/worker-exited', message: 'reader stopped (exit 134)' },
    });
  });

  it('a worker that dies after opening: the pending call and later calls fail, saying why', async () => {
    const { service, workers, open } = serviceWithFakeWorker();
    const opening = open('c4');
    workers[0].say({ type: 'done', summary: SUMMARY });
    const result = await opening;
    if (!result.ok) throw new Error(result.error.message);
    const pending = service.getPerf(result.file.fileId);
    expect(workers[0].posted).toEqual([{ type: 'call', id: 1, method: 'getPerf', args: [] }]);
    workers[0].exit(1);
    await expect(pending).rejects.toThrow("the file's reader stopped (exit 1)");
    await expect(service.getRows(result.file.fileId, [0])).rejects.toThrow(
      "the file's reader stopped (exit 1)",
    );
  });

  it('calls are answered by id; a not-found answer is a NotFoundError', async () => {
    const { service, workers, open } = serviceWithFakeWorker();
    const opening = open('c5');
    workers[0].say({ type: 'done', summary: SUMMARY });
    const result = await opening;
    if (!result.ok) throw new Error(result.error.message);
    const first = service.getSample(result.file.fileId, 0);
    const second = service.getSample(result.file.fileId, 99);
    expect(workers[0].posted.map((m) => [m.id, m.args])).toEqual([
      [1, [0]],
      [2, [99]],
    ]);
    // answered out of order
    workers[0].say({ type: 'answer', id: 2, error: { notFound: true, message: 'no row 99' } });
    workers[0].say({ type: 'answer', id: 1, result: { rowId: 0, fields: {} } });
    await expect(second).rejects.toBeInstanceOf(NotFoundError);
    expect(await first).toEqual({ rowId: 0, fields: {} });
    await service.close(result.file.fileId);
    expect(workers[0].terminated).toBe(1);
  });
});
