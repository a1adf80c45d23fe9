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
  it('asks ahead for both files once a second file of the format opens, and compares with them', async () => {
    const { service, workers, open, answer } = serviceWithFakeWorkers();
    const a = await open('rollout_7.pt', seven.summary);
    // one file: nothing to compare it with, nothing asked
    expect(methods(workers[0])).toEqual([]);
    const b = await open('rollout_8.pt', eight.summary);
    expect(methods(workers[0])).toEqual(['compareDigestWhenWarm']);
    expect(methods(workers[1])).toEqual(['compareDigestWhenWarm']);
    answer(workers[0], workers[0].posted[0], compareDigest(seven));
    answer(workers[1], workers[1].posted[0], compareDigest(eight));

    const result = await service.compare(a, b);
    // no digest asked again: the ones asked ahead were used
    expect(methods(workers[0])).toEqual(['compareDigestWhenWarm']);
    expect(methods(workers[1])).toEqual(['compareDigestWhenWarm']);
    const direct = compareTraces(
      {
        fileId: a,
        summary: { ...seven.summary, fileId: a } as never,
        digest: compareDigest(seven),
      },
      {
        fileId: b,
        summary: { ...eight.summary, fileId: b } as never,
        digest: compareDigest(eight),
      },
    );
    expect(result).toEqual(direct);
    // the same pair again: the kept answer; the other order is compared anew, same digests
    expect(await service.compare(a, b)).toBe(result);
    const reversed = await service.compare(b, a);
    expect(reversed.matched.aRowIds).toEqual(result.matched.bRowIds);
    expect(methods(workers[0])).toEqual(['compareDigestWhenWarm']);
  });

  it('asks a worker when nothing was kept, and forgets a closed file', async () => {
    const { service, workers, open, answer } = serviceWithFakeWorkers();
    const a = await open('rollout_7.pt', seven.summary);
    const b = await open('rollout_8.pt', eight.summary);
    // the asks ahead fail (the workers said no): nothing is kept of them
    for (const worker of workers)
      worker.say({
        type: 'answer',
        id: worker.posted[0].id,
        error: { notFound: false, message: 'busy' },
      });
    await new Promise((r) => setImmediate(r));
    const comparing = service.compare(a, b);
    await new Promise((r) => setImmediate(r));
    expect(methods(workers[0])).toEqual(['compareDigestWhenWarm', 'compareDigest']);
    expect(methods(workers[1])).toEqual(['compareDigestWhenWarm', 'compareDigest']);
    answer(workers[0], workers[0].posted[1], compareDigest(seven));
    answer(workers[1], workers[1].posted[1], compareDigest(eight));
    const first = await comparing;

    await service.close(b);
    const c = await open('rollout_8.pt', eight.summary);
    // the new file and its partner: A's digest is kept, so only C's is asked ahead
    expect(methods(workers[0])).toEqual(['compareDigestWhenWarm', 'compareDigest']);
    expect(methods(workers[2])).toEqual(['compareDigestWhenWarm']);
    answer(workers[2], workers[2].posted[0], compareDigest(eight));
    const again = await service.compare(a, c);
    expect(again).not.toBe(first);
    expect(again.stats).toEqual(first.stats);
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
    port1.close();
  });
});
