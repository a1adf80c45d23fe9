import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService, type IngestRunner } from '../../../src-main/api/trace-service';
import { runOpenOrder } from '../../../src-main/api/run-opening';
import type { HostEvent, RunResult } from '../../../src-main/core/api/trace-api';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { IngestFailure } from '../../../src-main/ingest/ingest-connection';
import { ingestInThread } from '../../support/in-thread-ingest';

// A run answers with its first files while a slow one is still being read (held back here until
// the test lets it go), then each arrival comes as a 'run-updated' event; the last one's joins are
// the joins of the whole run opened at once. Counts: tests/fixtures/run/README.md.
const RUN = resolve(__dirname, '../../fixtures/run');
const SGLANG = 'sglang_otel_trace.json';

/** The fixture ingest, but the file named `name` is not answered until `release()`. */
function holdingBack(name: string, log: string[] = []) {
  const inner = ingestInThread(FORMATS);
  let release!: () => void;
  const gate = new Promise<void>((go) => (release = go));
  const runner: IngestRunner = (request, onProgress, onPreview) => {
    const job = inner(request, onProgress, onPreview);
    const first = request.sources[0];
    if (first.kind === 'path') log.push(`start ${basename(first.path)}`);
    if (first.kind !== 'path' || basename(first.path) !== name) return job;
    let stop!: (error: IngestFailure) => void;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    return {
      result: Promise.race([gate.then(() => job.result), stopped]),
      cancel: () => {
        job.cancel();
        stop(new IngestFailure({ code: 'open/cancelled', message: 'cancelled' }));
      },
    };
  };
  return { runner, release: () => release() };
}

/** The run's updates, as the renderer gets them, until one says the run is complete. */
function updatesOf(service: TraceService, openId: string) {
  const updates: RunResult[] = [];
  const complete = new Promise<RunResult>((done) =>
    service.onHostEvent((event: HostEvent) => {
      if (event.type !== 'run-updated' || event.openId !== openId) return;
      updates.push(event.result);
      if (event.result.complete) done(event.result);
    }),
  );
  return { updates, complete };
}

/** Joins with each file position replaced by the file's path: comparable across arrival orders. */
function byPath(run: RunResult): unknown {
  const pathOf = (k: number) => run.files[k].file.path!.slice(RUN.length + 1);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        key === 'file' && typeof v === 'number' ? pathOf(v) : walk(v),
      ]),
    );
  };
  const sortedLists = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      return value
        .map(sortedLists)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, sortedLists(v)]));
  };
  return sortedLists(walk(run.joins));
}

describe('openRun answers with its first files', () => {
  it('answers before a slow file is in; the joins once it is in equal a whole open', async () => {
    const log: string[] = [];
    const { runner, release } = holdingBack(SGLANG, log);
    const service = new TraceService(runner);
    service.onHostEvent((event) => {
      if (event.type === 'run-updated') log.push(`in ${event.result.files.at(-1)?.file.name}`);
    });
    const { updates, complete } = updatesOf(service, 'early');
    const first = await service.openRun({ openId: 'early', paths: [RUN], answer: 'first-file' });
    // the SGLang file is held back: the first answer cannot wait for it
    expect(first.complete).toBe(false);
    expect(first.files.length).toBeGreaterThanOrEqual(1);
    expect(first.pending.map((p) => p.name)).toContain(SGLANG);
    expect(first.files.map((f) => f.file.name)).not.toContain(SGLANG);

    // every other file comes in while SGLang's is held: 6 of the 7 traces
    await expect
      .poll(() => updates.at(-1)?.files.length, { timeout: 20_000, interval: 50 })
      .toBe(6);
    const withoutServer = updates.at(-1)!;
    expect(withoutServer.complete).toBe(false);
    expect(withoutServer.pending.map((p) => p.name)).toEqual([SGLANG]);
    // the samples are joined already; no server request is known yet (README: 64 samples)
    expect(withoutServer.joins.counts).toEqual({
      samples: 64,
      samplesWithServerRequests: 0,
      samplesWithoutServerRequest: 64,
      serverRequests: 0,
      serverRequestsWithoutSample: 0,
      staleSamples: 0,
    });
    expect(withoutServer.joins.trainer.records).toBe(456);

    // the smallest dump (README: rollout_1.pt, 205491 bytes) and the smallest file (a v1
    // timeline, 90872 bytes) first; the largest, SGLang's, once that dump is in
    expect(log.slice(0, 2)).toEqual(['start rollout_1.pt', 'start slime-trainer-0.jsonl']);
    expect(log.indexOf(`start ${SGLANG}`)).toBeGreaterThan(log.indexOf('in rollout_1.pt'));
    release();
    const last = await complete;
    expect(last.pending).toEqual([]);
    expect(last.files.map((f) => f.file.name).at(-1)).toBe(SGLANG);
    // every update adds one file, in order: positions never move
    updates.forEach((update, k) => {
      expect(update.files.length).toBe(k + 1);
      if (k > 0) expect(update.files.slice(0, k)).toEqual(updates[k - 1].files);
    });

    const whole = await new TraceService(ingestInThread(FORMATS)).openRun({
      openId: 'whole',
      paths: [RUN],
    });
    expect(whole.joins.counts).toEqual({
      samples: 64,
      samplesWithServerRequests: 64,
      samplesWithoutServerRequest: 0,
      serverRequests: 65,
      serverRequestsWithoutSample: 1,
      staleSamples: 0,
    });
    expect(last.joins.counts).toEqual(whole.joins.counts);
    expect(byPath(last)).toEqual(byPath(whole));
  });

  it('cancelOpen on the run stops the file still being read; the files in stay', async () => {
    const { runner } = holdingBack(SGLANG);
    const service = new TraceService(runner);
    const { updates, complete } = updatesOf(service, 'stop');
    await service.openRun({ openId: 'stop', paths: [RUN], answer: 'first-file' });
    await expect
      .poll(() => updates.at(-1)?.files.length, { timeout: 20_000, interval: 50 })
      .toBe(6);
    await service.cancelOpen('stop');
    const last = await complete;
    expect(last.files).toHaveLength(6);
    expect(last.errors).toEqual([
      { code: 'open/cancelled', message: 'cancelled', fileName: SGLANG },
    ]);
    // the files that came in are still open
    const listed = await service.listFiles();
    expect(listed.map((f) => f.fileId).sort()).toEqual(last.files.map((f) => f.file.fileId).sort());
  });
});

describe('runOpenOrder', () => {
  const file = (bytes: number, holdsSamples = false) => ({ bytes, holdsSamples });
  it('starts the largest at once, then the smallest dump, then the rest smallest first', () => {
    // a 500 MB SGLang file, two dumps of 100 and 90 MB, trainer ranks of 12 MB and 120 kB
    const run = [file(100e6, true), file(500e6), file(12e6), file(90e6, true), file(120e3)];
    expect(runOpenOrder(run)).toEqual([1, 3, 4, 2, 0]);
    // no dump: by size alone
    expect(runOpenOrder([file(5), file(9), file(1)])).toEqual([1, 2, 0]);
    // the only dump is the largest: it starts at once
    expect(runOpenOrder([file(5), file(9, true), file(1)])).toEqual([1, 2, 0]);
    expect(runOpenOrder([])).toEqual([]);
  });
});
