import { MessageChannel } from 'node:worker_threads';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { compareDigest, compareTraces } from '../../../src-main/core/compare/compare-traces';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { connectIngest } from '../../../src-main/ingest/ingest-connection';
import type { FileCallMessage, IngestMessage } from '../../../src-main/ingest/ingest-protocol';
import { runIngestSession, type SessionPort } from '../../../src-main/ingest/ingest-session';
import { SLIME, fixtureSource } from '../../support/fixtures';
import { FakeWorker } from './fake-worker';

// Main keeps the compare digests (api/compare-digests.ts): asked ahead for the pair a user
// compares, once each worker has warmed its own; the first compare then asks the workers
// nothing, and a second compare of the same pair is the kept answer.

const opened = (name: string) => openTraceFile([fixtureSource(resolve(SLIME, name))]);
const seven = opened('rollout_7.pt');
const eight = opened('rollout_8.pt');

function serviceWithFakeWorkers() {
  const workers: FakeWorker[] = [];
  const service = new TraceService((_request, onProgress) => {
    const worker = new FakeWorker();
    workers.push(worker);
    return connectIngest(worker, onProgress);
  });
  const open = async (name: string, summary: typeof seven.summary) => {
    const opening = service.open({
      openId: name,
      sources: [{ kind: 'path', path: resolve(SLIME, name) }],
    });
    workers.at(-1)!.say({ type: 'done', summary });
    const result = await opening;
    if (!result.ok) throw new Error(result.error.message);
    return result.file.fileId;
  };
  const answer = (worker: FakeWorker, call: FileCallMessage, result: unknown) =>
    worker.say({ type: 'answer', id: call.id, result: structuredClone(result) });
  return { service, workers, open, answer };
}

const methods = (worker: FakeWorker) => worker.posted.map((call) => call.method);

describe('compare digests kept in main', () => {
  it('compares ahead once a second file of the format opens: the first compare asks nothing', async () => {
    const { service, workers, open, answer } = serviceWithFakeWorkers();
    const a = await open('rollout_7.pt', seven.summary);
    // one file: nothing to compare it with, nothing asked
    expect(methods(workers[0])).toEqual([]);
    const b = await open('rollout_8.pt', eight.summary);
    // the new file's digest once its worker is warm; then the older file compares itself with it
    expect(methods(workers[1])).toEqual(['compareDigestWhenWarm']);
    expect(methods(workers[0])).toEqual([]);
    answer(workers[1], workers[1].posted[0], compareDigest(eight));
    await new Promise((r) => setImmediate(r));
    expect(methods(workers[0])).toEqual(['compareWith']);
    const [self, other] = workers[0].posted[0].args as [
      { fileId: string },
      { fileId: string; digest: unknown },
    ];
    expect(self).toMatchObject({ fileId: a, summary: { fileId: a, format: 'slime' } });
    expect(other).toMatchObject({ fileId: b, summary: { fileId: b, format: 'slime' } });
    expect(other.digest).toEqual(compareDigest(eight));
    const made = compareTraces(
      { ...(self as { fileId: string; summary: never }), digest: compareDigest(seven) },
      other as never,
    );
    answer(workers[0], workers[0].posted[0], made);

    const result = await service.compare(a, b);
    expect(result).toEqual(made);
    // nothing more asked of either worker, and the same pair again is the kept answer
    expect(await service.compare(a, b)).toBe(result);
    expect([...methods(workers[0]), ...methods(workers[1])]).toEqual([
      'compareWith',
      'compareDigestWhenWarm',
    ]);
    // the other order is compared anew in main: A's digest asked, B's was kept
    const reversing = service.compare(b, a);
    await new Promise((r) => setImmediate(r));
    expect(methods(workers[0])).toEqual(['compareWith', 'compareDigest']);
    expect(methods(workers[1])).toEqual(['compareDigestWhenWarm']);
    answer(workers[0], workers[0].posted[1], compareDigest(seven));
    const reversed = await reversing;
    expect(reversed.matched.aRowIds).toEqual(result.matched.bRowIds);
  });

  it('a compare made ahead that failed is made anew; a closed file is forgotten', async () => {
    const { service, workers, open, answer } = serviceWithFakeWorkers();
    const a = await open('rollout_7.pt', seven.summary);
    const b = await open('rollout_8.pt', eight.summary);
    // the new file's worker said no: nothing is kept of it
    workers[1].say({
      type: 'answer',
      id: workers[1].posted[0].id,
      error: { notFound: false, message: 'busy' },
    });
    await new Promise((r) => setImmediate(r));
    expect(methods(workers[0])).toEqual([]);
    const comparing = service.compare(a, b);
    await new Promise((r) => setImmediate(r));
    expect(methods(workers[0])).toEqual(['compareDigest']);
    expect(methods(workers[1])).toEqual(['compareDigestWhenWarm', 'compareDigest']);
    answer(workers[0], workers[0].posted[0], compareDigest(seven));
    answer(workers[1], workers[1].posted[1], compareDigest(eight));
    const first = await comparing;
    expect(first.stats.find((s) => s.key === 'reward/mean')!.a).toBeCloseTo(
      compareDigest(seven).stats['reward/mean'],
      12,
    );

    await service.close(b);
    const c = await open('rollout_8.pt', eight.summary);
    expect(methods(workers[2])).toEqual(['compareDigestWhenWarm']);
    // C's worker is gone before it answers: the compare ahead fails, a compare asks again
    workers[2].exit(1);
    await new Promise((r) => setImmediate(r));
    await expect(service.compare(a, c)).rejects.toThrow("the file's reader stopped (exit 1)");
    expect(methods(workers[0])).toEqual(['compareDigest']);
  });
});

describe('the ingest session', () => {
  it('answers compareDigestWhenWarm once its warm-up is over, other calls at once', async () => {
    const { port1, port2 } = new MessageChannel();
    const seen: IngestMessage[] = [];
    port1.on('message', (message: IngestMessage) => seen.push(message));
    runIngestSession(
      port2 as unknown as SessionPort,
      { sources: [{ kind: 'path', path: resolve(SLIME, 'rollout_7.pt') }] },
      { formats: FORMATS },
    );
    const answers = () =>
      seen.flatMap((m): (number | string)[] =>
        m.type === 'answer' ? [m.id] : m.type === 'done' ? ['done'] : [],
      );
    const call = (id: number, method: FileCallMessage['method']) =>
      port1.postMessage({ type: 'call', id, method, args: [] } satisfies FileCallMessage);
    call(1, 'compareDigestWhenWarm');
    call(2, 'getRowFacts');
    call(3, 'compareDigestWhenWarm');
    // the warm-up (perf digest, a step per index, the compare digest) outlasts a few turns
    for (let turn = 0; turn < 200 && answers().length < 4; turn++)
      await new Promise((r) => setImmediate(r));
    expect(answers()).toEqual(['done', 2, 1, 3]);
    const digest = seen.find((m) => m.type === 'answer' && m.id === 1);
    expect(digest).toMatchObject({ result: structuredClone(compareDigest(seven)) });
    // compared in the worker with another file's digest: what main would make of the two
    const self = { fileId: 'f7', summary: { ...seven.summary, fileId: 'f7', path: '7' } };
    const other = {
      fileId: 'f8',
      summary: { ...eight.summary, fileId: 'f8', path: '8' },
      digest: compareDigest(eight),
    };
    port1.postMessage({
      type: 'call',
      id: 4,
      method: 'compareWith',
      args: [self, other],
    } satisfies FileCallMessage);
    for (let turn = 0; turn < 50 && answers().length < 5; turn++)
      await new Promise((r) => setImmediate(r));
    const compared = seen.find((m) => m.type === 'answer' && m.id === 4);
    expect(compared).toMatchObject({
      result: structuredClone(compareTraces({ ...self, digest: compareDigest(seven) }, other)),
    });
    port1.close();
  });
});
