import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { runIngestHost } from '../../../src-main/ingest/ingest-host';
import {
  IngestPool,
  POOL_LIMITS,
  type HostWorker,
  type PoolLimits,
} from '../../../src-main/ingest/ingest-pool';
import type { HostInMessage } from '../../../src-main/ingest/ingest-protocol';
import type { OpenResult } from '../../../src-main/core/api/trace-api';
import { ingestInThread } from '../../support/in-thread-ingest';
import { SLIME } from '../../support/fixtures';

// ingest/ingest-pool.ts and ingest-host.ts (issue 49, finding 2): small files share a few host
// threads, each holding many stores; here each host runs over a real MessageChannel in this
// thread (vitest cannot start the built worker), every message structured-cloned.
const dir = mkdtempSync(join(tmpdir(), 'te-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Chrome trace of `slices` slices named `${name}-k`: its own rows, told apart by name. */
function chromeTrace(name: string, slices = 1): string {
  const path = join(dir, `${name}.json`);
  const events = Array.from({ length: slices }, (_, k) => ({
    name: `${name}-${k}`,
    ph: 'X',
    ts: k * 10,
    dur: 5,
    pid: 1,
    tid: 1,
  }));
  writeFileSync(path, JSON.stringify({ traceEvents: events }));
  return path;
}

/** A pool whose hosts run in this thread; counts the hosts started and ended. */
function inThreadPool(limits: Partial<PoolLimits>) {
  const counts = { started: 0, ended: 0, ownWorker: 0 };
  const own = ingestInThread(FORMATS);
  const pool = new IngestPool(
    () => {
      counts.started++;
      const { port1, port2 } = new MessageChannel();
      runIngestHost(
        {
          postMessage: (message) => port2.postMessage(message),
          on: (_event, listener) => port2.on('message', listener),
          receive: () => receiveMessageOnPort(port2)?.message as HostInMessage | undefined,
        },
        { formats: FORMATS },
      );
      const worker: HostWorker = {
        postMessage: (message) => port1.postMessage(message),
        on: (event: string, listener: (message: never) => void) =>
          event === 'message' ? port1.on('message', listener as (m: unknown) => void) : port1,
        terminate: () => {
          counts.ended++;
          port1.close();
        },
      };
      return worker;
    },
    (request, onProgress, onPreview) => {
      counts.ownWorker++;
      return own(request, onProgress, onPreview);
    },
    { ...POOL_LIMITS, hosts: 2, ...limits },
  );
  return { pool, counts, service: new TraceService(pool.run) };
}

const opened = (result: OpenResult) => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.file;
};

describe('IngestPool: many small files on a few host threads', () => {
  it('40 files opened at once share 2 hosts; each answers with its own rows; closing all ends them', async () => {
    const { pool, counts, service } = inThreadPool({});
    const paths = Array.from({ length: 40 }, (_, i) => chromeTrace(`t${i}`, 1 + (i % 3)));
    const files = (
      await Promise.all(
        paths.map((path, i) =>
          service.open({ openId: `o${i}`, sources: [{ kind: 'path', path }] }),
        ),
      )
    ).map(opened);
    expect(counts).toEqual({ started: 2, ended: 0, ownWorker: 0 });
    expect(pool.hostCount).toBe(2);
    for (const [i, file] of files.entries()) {
      expect(file.rows).toBe(1);
      // the slices of t{i}: 1 + i % 3 of them, on one thread row; its last one
      const span = await service.getSpan(file.fileId, 0, 1 + (i % 3) - 1);
      expect(span.name).toBe(`t${i}-${i % 3}`);
    }
    for (const file of files.slice(0, 39)) await service.close(file.fileId);
    // one file still open keeps its host, and it still answers
    expect(pool.hostCount).toBe(1);
    expect((await service.getSpan(files[39].fileId, 0, 0)).name).toBe('t39-0');
    await service.close(files[39].fileId);
    expect(pool.hostCount).toBe(0);
    expect(counts.ended).toBe(2);
  });

  it('a host holds files up to its byte bound, then another starts', async () => {
    const { pool, service } = inThreadPool({ hosts: 1, fileCost: 0, hostBytes: 2_000 });
    const paths = Array.from({ length: 10 }, (_, i) => chromeTrace(`b${i}`, 4));
    const results = [];
    // one after the other: a host is idle again each time, so only the bound makes another
    for (const [i, path] of paths.entries())
      results.push(
        opened(await service.open({ openId: `b${i}`, sources: [{ kind: 'path', path }] })),
      );
    const bytes = results[0].bytes;
    expect(bytes).toBeGreaterThan(200);
    expect(pool.hostCount).toBe(Math.ceil(10 / Math.floor(2_000 / bytes)));
  });

  it('a large file, or a gzip, opens on a worker of its own', async () => {
    const { pool, counts, service } = inThreadPool({ ownWorkerBytes: 100_000 });
    // rollout_small.pt: 171,707 bytes
    opened(
      await service.open({
        openId: 'big',
        sources: [{ kind: 'path', path: resolve(SLIME, 'rollout_small.pt') }],
      }),
    );
    const gz = join(dir, 'small.json.gz');
    const { gzipSync } = await import('node:zlib');
    writeFileSync(
      gz,
      gzipSync(
        JSON.stringify({ traceEvents: [{ name: 'z', ph: 'X', ts: 0, dur: 1, pid: 1, tid: 1 }] }),
      ),
    );
    opened(await service.open({ openId: 'gz', sources: [{ kind: 'path', path: gz }] }));
    expect(counts.ownWorker).toBe(2);
    expect(pool.hostCount).toBe(0);
  });

  it('a broken file fails with its code; the files beside it on the host open and answer', async () => {
    const { pool, service } = inThreadPool({ hosts: 1 });
    const good = chromeTrace('good', 2);
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, '{"traceEvents":[{"name":"x","ph":"X","ts":0,');
    const [a, b, c] = await Promise.all(
      [good, cut, chromeTrace('good2', 1)].map((path, i) =>
        service.open({ openId: `c${i}`, sources: [{ kind: 'path', path }] }),
      ),
    );
    expect(b.ok).toBe(false);
    if (!b.ok) {
      expect(b.error.code).toMatch(/^[a-z-]+\/[a-z-]+$/);
      expect(b.error.fileName).toBe('cut.json');
    }
    expect((await service.getSpan(opened(a).fileId, 0, 1)).name).toBe('good-1');
    expect((await service.getSpan(opened(c).fileId, 0, 0)).name).toBe('good2-0');
    expect(pool.hostCount).toBe(1);
  });

  it('an open cancelled before its turn is never read; a closed file answers not found', async () => {
    const { service } = inThreadPool({ hosts: 1 });
    const first = service.open({
      openId: 'k1',
      sources: [{ kind: 'path', path: chromeTrace('k1') }],
    });
    const second = service.open({
      openId: 'k2',
      sources: [{ kind: 'path', path: chromeTrace('k2') }],
    });
    await service.cancelOpen('k2');
    const [one, two] = await Promise.all([first, second]);
    expect(two.ok === false && two.error.code).toBe('open/cancelled');
    const file = opened(one);
    await service.close(file.fileId);
    await expect(service.getRows(file.fileId, [0])).rejects.toThrow(/no open file/);
  });
});
